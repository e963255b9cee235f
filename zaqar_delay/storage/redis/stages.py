"""Queue stage of ``redis.delay``: stats that know about delays, and
upstream's queue writes acknowledged by the replicas (``wait_replicas``).

Zaqar loads it from the ``zaqar_delay.storage.redis.driver.queue.stages``
entry point, named after the driver's module.
"""

from zaqar.storage.redis import messages as upstream_messages
from zaqar.storage.redis import utils

from zaqar_delay import delay
from zaqar_delay import schedules
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import scripting
from zaqar_delay.storage.redis import waiting


# Stats reads made, at most, while the ends of the index are gone.
TRIES = 3


class MessageQueueHandler(upstream_messages.MessageQueueHandler):
    """Upstream's queue handler, whose stats add the delayed messages.

    ``total`` counts every message (some that expired may be counted
    until garbage collection, as upstream), ``claimed`` those held by a
    live claim, ``delayed`` those not due yet, and ``free`` the rest,
    which a claim can take now; ``next_due`` is the time the earliest
    delayed message comes due, present when ``delayed`` is not zero.
    Messages that came due in more than ``waiting.DUE_CHUNKS`` chunks
    and were not promoted yet (by a claim or list) may be counted as
    delayed, and ``next_due`` may then be later than theirs. Messages
    whose record is gone are dropped from the index as the oldest and
    newest are looked for, ``[delay] promote_batch_size`` at each end
    per look; a queue whose ends stay gone for ``TRIES`` looks is
    counted empty by that call, never a 503.

    With ``wait_replicas``, ``create`` and ``delete`` send upstream's
    transaction with a ``WAIT`` behind it on the same connection, and
    raise ``NotReplicated`` when fewer replicas acknowledged it in time.
    """

    @utils.raises_conn_error
    def create(self, name, metadata=None, project=None):
        if not self.driver.replication.replicas:
            return super().create(name, metadata, project)
        self._replicated(lambda pipe: self._message_ctrl._create_msgset(
            name, project, pipe))

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def delete(self, name, project=None):
        if not self.driver.replication.replicas:
            return super().delete(name, project)

        def stage(pipe):
            self._message_ctrl._delete_msgset(name, project, pipe)
            self._message_ctrl._delete_queue_messages(name, project, pipe)
        self._replicated(stage)

    def _replicated(self, stage):
        """``stage(pipe)``'s commands in one MULTI/EXEC, WAIT behind it
        (a transaction's pipeline would put the WAIT inside, where it
        waits for nothing)."""
        def transaction(pipe):
            pipe.execute_command('MULTI')
            stage(pipe)
            pipe.execute_command('EXEC')
        scripting.sent(self._client, self.driver.replication, transaction)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def stats(self, name, project=None):
        for _ in range(TRIES):
            stats = super().stats(name, project)
            counts = stats['messages']
            if not counts['total'] or 'newest' in counts:
                break
            # Counted, but the first ones at both ends are gone (their
            # ttl ended): ``first`` dropped them; count again. Zaqar's
            # API wants the oldest and newest of a queue it counts.
        else:
            counts.update(total=0, claimed=0, free=0)
        found = waiting.read(self._client, keys.index(name, project),
                             self.driver.now_ms())
        counts.update(delay.stats(counts['total'], counts['claimed'],
                                  found.total - found.due, found.next_due))
        stats.update(schedules.next_tick(self.driver, name, project))
        return stats
