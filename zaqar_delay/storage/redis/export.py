"""Read a queue's messages out of a redis store, for ``export``.

Reads only upstream Zaqar's records (the ``messages`` set by rank and
each message's hash, with the due time to the millisecond ``dm`` where
``redis.delay`` wrote one), so it reads a ``redis`` store as well as a
``redis.delay`` one.
"""

from oslo_utils import encodeutils
from zaqar.storage.redis import models

from zaqar_delay.storage import base
from zaqar_delay.storage import export
from zaqar_delay.storage.redis import keys


class Export(base.Export):
    """Upstream's records of a redis store, a page at a time."""

    def records(self, queue, project, batch):
        client = self.driver.connection
        ranks = keys.index(queue, project).messages
        low = '-inf'
        while True:
            page = client.zrangebyscore(ranks, low, '+inf', start=0, num=batch,
                                        withscores=True)
            if not page:
                return
            low = '(%d' % page[-1][1]
            ids = [m for m, _ in page]
            with client.pipeline(transaction=False) as pipe:
                for mid in ids:
                    pipe.hget(mid, 'dm')
                due_ms = pipe.execute()
            for msg, ms in zip(models.Message.from_redis_bulk(ids, client),
                               due_ms):
                if msg is None:     # expired since the range was read
                    continue
                due = int(ms) / 1000 if ms else msg.delay_expires or None
                yield export.record(
                    id=msg.id, created=msg.created, ttl=msg.ttl,
                    expires=msg.expires, due=due,
                    claim_id=msg.claim_id, claim_expires=msg.claim_expires,
                    claim_count=msg.claim_count, body=msg.body)

    def claimed_at(self, queue, project, claim_id, tries=3):
        """When the live claim ``claim_id`` was made or last renewed (unix
        seconds, to the millisecond where ``redis.delay`` wrote it, else
        whole seconds), or None when it is gone: one read."""
        made, expires, ttl = self.driver.connection.hmget(
            claim_id, 'cm', 'e', 't')
        if made:
            return int(made) / 1000
        if expires is None or ttl is None:
            return None
        return int(encodeutils.safe_decode(expires)) - int(ttl)
