"""Queue stage of ``redis.delay``: stats that know about delays.

Zaqar loads it from the ``zaqar_delay.storage.redis.driver.queue.stages``
entry point, named after the driver's module.
"""

from zaqar.storage.redis import messages as upstream_messages
from zaqar.storage.redis import utils

from zaqar_delay import delay
from zaqar_delay import schedules
from zaqar_delay.storage.redis import keys


class MessageQueueHandler(upstream_messages.MessageQueueHandler):
    """Upstream's queue handler, whose stats add the delayed messages.

    ``total`` counts every message (some that expired may be counted
    until garbage collection, as upstream), ``claimed`` those held by a
    live claim, ``delayed`` those not due yet, and ``free`` the rest,
    which a claim can take now; ``next_due`` is the time the earliest
    delayed message comes due, present when ``delayed`` is not zero.
    """

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def stats(self, name, project=None):
        stats = super().stats(name, project)
        counts = stats['messages']
        due_key = keys.index(name, project).due
        now = self.driver.now()
        with self._client.pipeline() as pipe:
            pipe.zcount(due_key, '(%d' % now, '+inf')
            pipe.zrangebyscore(due_key, '(%d' % now, '+inf', start=0, num=1,
                               withscores=True)
            delayed, first_due = pipe.execute()

        next_due = int(first_due[0][1]) if first_due else None
        counts.update(delay.stats(counts['total'], counts['claimed'],
                                  delayed, next_due))
        stats.update(schedules.next_tick(self.driver, name, project))
        return stats
