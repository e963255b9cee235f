"""Upstream's start-up noise, kept out of the commands' output.

Zaqar's ``Bootstrap`` builds osprofiler's notifier whatever ``[profiler]
enabled`` says, from ``[profiler] connection_string``, whose default
(``messaging://``) needs oslo.messaging, which Zaqar does not install:
each start logs a 12-line ERROR traceback and goes on without the
notifier. These commands never start a trace, so the notifier is never
used: that record is dropped (doc/source/admin.rst).
"""

import logging

NOTIFIER_LOGGER = 'osprofiler.notifier'


class _NotifierFailure(logging.Filter):
    """Drops osprofiler's "Could not initialize driver" record."""

    def filter(self, record):
        return not str(record.msg).startswith('Could not initialize driver')


_FILTER = _NotifierFailure()


def quiet_profiler():
    """Drop osprofiler's notifier failure in this process (idempotent)."""
    logging.getLogger(NOTIFIER_LOGGER).addFilter(_FILTER)
