"""The pending pushes of a ``redis.delay`` store.

One sorted set per store, ``zaqar_delay.pushes`` (see the message
controller's docstring): a delayed message's push, scored by its due
time, written by the post script when pushes are on.
"""

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
