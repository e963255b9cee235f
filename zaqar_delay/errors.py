"""Errors that zaqar-delay raises to Zaqar's transports."""

from zaqar.storage import errors as storage_errors
from zaqar.transport import validation


class DelayError(validation.ValidationFailed):
    """Raised when a message's delay (or a queue's delay metadata) cannot
    be honoured as asked.

    It subclasses Zaqar's ``ValidationFailed``, which both the wsgi and
    the websocket transports turn into a 400 response with this message.
    """


class QueueMetadataRefused(DelayError, storage_errors.FlavorDoesNotExist):
    """Raised when a delay driver refuses the metadata of a queue create.

    Zaqar's queue create answers a 400 with this text on both transports:
    the websocket one for any ``ValidationFailed``; the wsgi one only for
    a ``FlavorDoesNotExist`` (every other storage error is a 503), hence
    the second base. The wsgi transport logs that case as a missing
    flavor, with a traceback: ``checks.quiet_wsgi_refusals`` rewrites
    that record into one INFO line with this text.
    """

    def __init__(self, queue, why):
        text = 'Queue "%s" not created: %s' % (queue, why)
        ValueError.__init__(self, text)
        self.queue, self.why = queue, why


class NotReplicated(storage_errors.ExceptionBase):
    """Raised when a write reached the redis primary but not enough
    replicas acknowledged it in time (``[drivers:message_store:
    redis.delay] wait_replicas``).

    The write may survive or vanish at a failover, so it is not
    acknowledged: Zaqar's transports answer a 503, which the client
    may retry (a retried post may then store the message twice).
    """

    msg_format = ('write held by {acked} of {wanted} redis replicas '
                  'after {timeout_ms} ms: not acknowledged')
