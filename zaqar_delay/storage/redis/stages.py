"""Queue stage of ``redis.delay``: stats that know about delays.

Zaqar loads it from the ``zaqar_delay.storage.redis.driver.queue.stages``
entry point, named after the driver's module.
"""

from zaqar.storage.redis import messages as upstream_messages
from zaqar.storage.redis import utils

from zaqar_delay import delay
from zaqar_delay import schedules
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import waiting


class MessageQueueHandler(upstream_messages.MessageQueueHandler):
    """Upstream's queue handler, whose stats add the delayed messages.

    ``total`` counts every message (some that expired may be counted
    until garbage collection, as upstream), ``claimed`` those held by a
    live claim, ``delayed`` those not due yet, and ``free`` the rest,
    which a claim can take now; ``next_due`` is the time the earliest
    delayed message comes due, present when ``delayed`` is not zero.
    Messages that came due in more than ``waiting.DUE_CHUNKS`` chunks
    and were not promoted yet (by a claim or list) may be counted as
    delayed, and ``next_due`` may then be later than theirs.
    """

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def stats(self, name, project=None):
        stats = super().stats(name, project)
        counts = stats['messages']
        found = waiting.read(self._client, keys.index(name, project),
                             self.driver.now_ms())
        counts.update(delay.stats(counts['total'], counts['claimed'],
                                  found.total - found.due, found.next_due))
        stats.update(schedules.next_tick(self.driver, name, project))
        return stats
