"""Every error zaqar-delay raises, under one base: ``DelayError``.

They reach Zaqar's transports through ``zaqar_delay.storage.boundary``,
which turns a ``Refused`` into the upstream error Zaqar answers with a
400 (doc/source/retries.rst).

The errors that are Zaqar's storage errors as well (``NotReplicated``,
``DedupUndecided``, ``StoreUnavailable``) are defined in
``zaqar_delay.storage_errors`` and named here when first used:
importing Zaqar's storage errors imports all of Zaqar (its package
imports its bootstrap, some 600 modules), which the PySpark jobs and
their tools, importing this module, do not need.
"""

# Named here, defined in zaqar_delay.storage_errors.
_STORAGE_ERRORS = ('NotReplicated', 'DedupUndecided', 'StoreUnavailable')


def __getattr__(name):
    if name in _STORAGE_ERRORS:
        from zaqar_delay import storage_errors
        return getattr(storage_errors, name)
    raise AttributeError('module %r has no attribute %r' % (__name__, name))


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
