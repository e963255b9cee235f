"""Every error zaqar-delay raises, under one base: ``DelayError``.

They reach Zaqar's transports through ``zaqar_delay.storage.boundary``,
which turns a ``Refused`` into the upstream error Zaqar answers with a
400 (doc/source/retries.rst).
"""

from zaqar.storage import errors as storage_errors


class DelayError(Exception):
    """The base of every zaqar-delay error."""


class Refused(DelayError):
    """Raised when input (a delay, queue metadata, a request body) is
    refused; the text, ``text.format(*args)``, says why."""

    def __init__(self, text, *args):
        super().__init__(text.format(*args))


class QueueMetadataRefused(Refused):
    """Raised when a queue create carries metadata a driver refuses."""

    def __init__(self, queue, why):
        super().__init__('Queue "{0}" not created: {1}', queue, why)
        self.queue, self.why = queue, why


class NotReplicated(DelayError, storage_errors.ExceptionBase):
    """Raised when fewer redis replicas than ``[drivers:message_store:
    redis.delay] wait_replicas`` acknowledged a write in time.

    A storage error, so also Zaqar's: both transports answer a 503,
    which the client may retry (a retried post may store twice).
    """

    msg_format = ('write held by {acked} of {wanted} redis replicas '
                  'after {timeout_ms} ms: not acknowledged')


class DedupUndecided(DelayError, storage_errors.ExceptionBase):
    """Raised when a post could neither take a dedup value nor find the
    message holding it in time (a slow or contended store): its message
    is not stored. A storage error, so both transports answer a 503,
    which the client may retry (other messages of the post may be
    stored)."""

    msg_format = ('dedup value in queue {queue} neither taken nor found '
                  'in {seconds} s: message not stored, post it again')


class StoreUnavailable(DelayError, storage_errors.ConnectionError):
    """Raised when a store did not answer, or answered with a failure,
    after its client's retries; what the operation wrote before is
    kept. Zaqar's ``ConnectionError``: both transports answer a 503,
    the commands print one line (``cmd.failure``)."""

    msg_format = '{store} is unavailable: {cause}'


class UpstreamChanged(DelayError, ImportError):
    """Raised when the installed Zaqar lacks a name zaqar-delay uses."""


class QueueNotPooled(DelayError):
    """Raised when the pool catalog maps a queue to no pool."""


class HistoryError(DelayError):
    """Raised when the store keeps no history."""


class ExportError(DelayError):
    """Raised when a store cannot be exported (say, an unknown driver)."""


class NoReply(DelayError):
    """Raised when a request to Zaqar got no reply; ``kind`` names why
    (the error that caused it: ``ConnectionRefusedError``, ...)."""

    def __init__(self, cause):
        super().__init__(str(cause))
        self.kind = type(cause).__name__


class NoJava(DelayError):
    """Raised when no Java runtime is found."""


class ServerExited(DelayError):
    """Raised when a development server exits while starting."""


class CommandFailure(DelayError):
    """Raised when a console command cannot go on; its text is the line
    printed."""

    status = 1


class UsageFailure(CommandFailure):
    """Raised when a command's arguments cannot work together."""

    status = 2
