"""Errors that zaqar-delay raises to Zaqar's transports."""

from zaqar.transport import validation


class DelayError(validation.ValidationFailed):
    """Raised when a message's delay cannot be honoured as asked.

    It subclasses Zaqar's ``ValidationFailed``, which both the wsgi and
    the websocket transports turn into a 400 response with this message.
    """
