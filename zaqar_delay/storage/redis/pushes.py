"""The pending pushes of a ``redis.delay`` store.

One sorted set per store, ``zaqar_delay.pushes`` (see the message
controller's docstring): each message's push, scored by its due time,
written by the post script when pushes are on. Failed pushes
(``pending.FAILED_FIELDS``): a hash ``zaqar_delay.pushes.failed``
(record key -> JSON) and a sorted set ``zaqar_delay.pushes.failed_at``
(record key -> when it failed), trimmed of records older than the
retention when one is added.
"""

from oslo_serialization import jsonutils
from zaqar.storage.redis import utils

from zaqar_delay import pending
from zaqar_delay.storage.redis import keys


class Pushes:
    """What a dispatcher needs of the store: take, done, next due."""

    def __init__(self, driver):
        self.driver = driver    # read by upstream's retry decorators
        self._client = driver.connection
        self._take = driver.scripts['push_take']

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def take(self, now, limit, lease):
        """Up to ``limit`` due pushes, held for ``lease`` seconds."""
        taken = self._take(keys=[keys.PUSHES], args=[now, limit, now + lease])
        found = []
        for member in taken:
            member = member.decode() if isinstance(member, bytes) else member
            message_id, queue, project = pending.parse(member)
            found.append(pending.Push(project, queue, message_id, member))
        return found

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def done(self, pushes):
        """Forget pushes that were made (or whose message is gone)."""
        if pushes:
            self._client.zrem(keys.PUSHES, *[p.handle for p in pushes])

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def next_due(self):
        """The earliest due time (or lease expiry) pending, or None."""
        first = self._client.zrange(keys.PUSHES, 0, 0, withscores=True)
        return first[0][1] if first else None

    def count(self):
        return self._client.zcard(keys.PUSHES)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def fail(self, record, retention):
        """Keep a failed push's record; drop those older than
        ``retention`` seconds (at most 100 a call)."""
        old = self._client.zrangebyscore(keys.FAILED_PUSHES_AT, '-inf',
                                         record['at'] - retention,
                                         start=0, num=100)
        with self._client.pipeline() as pipe:
            if old:
                pipe.hdel(keys.FAILED_PUSHES, *old)
                pipe.zrem(keys.FAILED_PUSHES_AT, *old)
            pipe.hset(keys.FAILED_PUSHES, record['key'],
                      jsonutils.dumps(record))
            pipe.zadd(keys.FAILED_PUSHES_AT, {record['key']: record['at']})
            pipe.execute()

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def failed(self, limit):
        """Up to ``limit`` failed-push records, oldest first."""
        found = self._client.zrange(keys.FAILED_PUSHES_AT, 0, limit - 1)
        if not found:
            return []
        return [jsonutils.loads(record) for record in self._client.hmget(
            keys.FAILED_PUSHES, found) if record]

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def forget_failed(self, records):
        """Delete failed-push records (as ``failed`` gave them)."""
        record_keys = [record['key'] for record in records]
        if record_keys:
            with self._client.pipeline() as pipe:
                pipe.hdel(keys.FAILED_PUSHES, *record_keys)
                pipe.zrem(keys.FAILED_PUSHES_AT, *record_keys)
                pipe.execute()
