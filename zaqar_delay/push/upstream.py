"""Upstream Zaqar's notification internals that the pushes use.

Zaqar does not promise to keep these: its notifier's message type, its
webhook task's retry backoff functions and retry defaults, and the
stevedore namespace of its notification tasks (mailto, trust). Each is
taken here, when this module is imported, through
``storage.upstream.private``, so a Zaqar that lacks one fails with an
``UpstreamChanged`` naming it (``tests/unit/storage/test_upstream.py``).
Checked against the Zaqar releases in ``zaqar_delay.version``.
"""

from stevedore import driver

from zaqar_delay.storage import upstream

_consts = 'zaqar.common.consts'

# The ``Message_Type`` of a push (``Notification``).
NOTIFICATION = upstream.private('zaqar.notification.notifier',
                                'MessageType.Notification').name

# backoff name -> function(minimum delay, maximum delay, interval) giving
# the waits of the backoff phase of a retry policy.
BACKOFF = upstream.private('zaqar.notification.tasks.webhook',
                           'RETRY_BACKOFF_FUNCTION_MAP')
LINEAR = upstream.private(_consts, 'RETRY_BACKOFF_LINEAR')
LINEAR_INTERVAL = upstream.private(_consts, 'LINEAR_INTERVAL')

# A retry policy's keys and Zaqar's defaults for them.
DEFAULTS = {key.lower(): upstream.private(_consts, key) for key in (
    'RETRIES_WITH_NO_DELAY', 'MINIMUM_DELAY_RETRIES', 'MINIMUM_DELAY',
    'MAXIMUM_DELAY', 'MAXIMUM_DELAY_RETRIES')}

TASKS = 'zaqar.notification.tasks'    # stevedore namespace: scheme -> task

pool_catalog = upstream.pool_catalog

BORROWED = (NOTIFICATION, BACKOFF, LINEAR, LINEAR_INTERVAL, DEFAULTS)


def task(scheme):
    """Zaqar's notification task for a subscriber URL scheme (``mailto``,
    ``trust+http``...), as Zaqar's notifier loads it."""
    return driver.DriverManager(TASKS, scheme, invoke_on_load=True).driver
