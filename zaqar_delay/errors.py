"""Errors that zaqar-delay raises to Zaqar's transports."""

from zaqar.storage import errors as storage_errors
from zaqar.transport import validation


class DelayError(validation.ValidationFailed):
    """Raised when a message's delay (or a queue's delay metadata) cannot
    be honoured as asked.

    It subclasses Zaqar's ``ValidationFailed``, which both the wsgi and
    the websocket transports turn into a 400 response with this message.
    """


class QueueMetadataRefused(storage_errors.FlavorDoesNotExist):
    """Raised by a queue create whose metadata a delay driver refuses.

    Zaqar's wsgi queue PUT answers 503 for any storage error but a
    missing flavor, which it answers with a 400 and the error's text; so
    the refusal is that kind of error, with its own text. (A metadata
    PATCH answers DelayError with a 400 itself.)
    """

    msg_format = '{why}'

    def __init__(self, why):
        storage_errors.ExceptionBase.__init__(self, why=why)
