"""The zaqar-delay errors that are Zaqar's storage errors as well: both
transports answer them as Zaqar's (a 503). Named through
``zaqar_delay.errors`` (``errors.NotReplicated``), which leaves this
module, and so Zaqar, unimported until one is used."""

from zaqar.storage import errors as storage_errors

from zaqar_delay import errors


class NotReplicated(errors.DelayError, storage_errors.ExceptionBase):
    """Raised when fewer redis replicas than ``[drivers:message_store:
    redis.delay] wait_replicas`` acknowledged a write in time.

    A storage error, so also Zaqar's: both transports answer a 503,
    which the client may retry (a retried post may store twice).
    """

    msg_format = ('write held by {acked} of {wanted} redis replicas '
                  'after {timeout_ms} ms: not acknowledged')


class DedupUndecided(errors.DelayError, storage_errors.ExceptionBase):
    """Raised when a post could neither take a dedup value nor find the
    message holding it in time (a slow or contended store): its message
    is not stored. A storage error, so both transports answer a 503,
    which the client may retry (other messages of the post may be
    stored)."""

    msg_format = ('dedup value in queue {queue} neither taken nor found '
                  'in {seconds} s: message not stored, post it again')


class StoreUnavailable(errors.DelayError, storage_errors.ConnectionError):
    """Raised when a store did not answer, or answered with a failure,
    after its client's retries; what the operation wrote before is
    kept. Zaqar's ``ConnectionError``: both transports answer a 503,
    the commands print one line (``cmd.failure``)."""

    msg_format = '{store} is unavailable: {cause}'
