"""Read a ``redis.delay`` store for metrics: sorted-set counts only.

Queues: upstream's ``msgset_index``, and for a pool the queues the
catalog maps to it (``storage.catalog.pool_queues``).

Per queue, one pipelined round trip for every queue of a scrape (two
ZCARDs, a ZCOUNT, two GETs and five short ranges on the queue's index
sets, ``keys``), then one more for two reads per waiting chunk holding
due messages (``waiting``, at most ``DUE_CHUNKS``) and two naming the
first ready message (``readies``), and one for the HMGET of that
message: O(log n) per queue, whatever its backlog.
Store-wide: ZCARD of the pending and failed pushes, and an HGETALL of
the counters the claim, release and dead-letter scripts keep
(``keys.METRICS``, ``scripts/metrics.lua``).
"""

from oslo_utils import encodeutils

from zaqar_delay import counts
from zaqar_delay.storage import base
from zaqar_delay.storage import catalog
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import readies
from zaqar_delay.storage.redis import waiting


def _number(raw, per_second=1):
    if raw is None:
        return None
    value = float(encodeutils.safe_decode(raw)) / per_second
    return value or None


class Metrics(base.MetricsReader):
    """The metrics reader of a ``redis.delay`` store."""

    def queues(self, control, cache, pool=''):
        """Those of upstream's ``msgset_index``, in the store's order,
        then, for a ``pool``, those the catalog maps to it (Zaqar writes
        ``msgset_index`` in an unpooled store only). A
        ``<project>.<queue>`` scope is split at its first dot
        (``keys.split_scope``), once per scope: ``cache`` keeps it
        across scrapes."""
        seen = set()
        for scope in keys.scopes(self.driver.connection):
            if scope not in cache:
                cache[scope] = keys.split_scope(scope)
            if cache[scope] is not None:
                seen.add(cache[scope])
                yield cache[scope]
        for found in (catalog.pool_queues(control, pool) or ()) if pool \
                else ():
            if found not in seen:
                yield found

    def read(self, named, now):
        """{(project, queue): QueueStats} of ``named`` queues at ``now``."""
        client = self.driver.connection
        indexes = [keys.index(queue, project) for project, queue in named]
        width = 3 + readies.ASKED + 3
        with client.pipeline(transaction=False) as pipe:
            for index in indexes:
                pipe.zcard(index.claimed)
                pipe.zcount(index.claim_expiry, '-inf', now)
                pipe.zrangebyscore(index.claim_expiry, '-inf', now, start=0,
                                   num=1, withscores=True)
                readies.ask(pipe, index)
                waiting.ask(pipe, index, now)
            replies = pipe.execute()
        rows = [replies[at:at + width]
                for at in range(0, len(replies), width)]
        ready_at = slice(3, 3 + readies.ASKED)
        wait_at = slice(3 + readies.ASKED, width)
        with client.pipeline(transaction=False) as pipe:
            sizes = [(waiting.ask_chunks(pipe, index, row[wait_at], now),
                      readies.ask_first(pipe, index, row[ready_at]))
                     for index, row in zip(indexes, rows)]
            second = iter(pipe.execute())
        chunk_replies, firsts = [], []
        for row, (waits, ready) in zip(rows, sizes):
            chunk_replies.append([next(second) for _ in range(waits)])
            firsts.append(readies.first(
                row[ready_at], [next(second) for _ in range(ready)]))
        with client.pipeline(transaction=False) as pipe:
            for mid in firsts:
                if mid is not None:
                    pipe.hmget(mid, 'dm', 'd', 'cr')
            held = iter(pipe.execute())
        found = {}
        for name, row, chunks, first in zip(named, rows, chunk_replies,
                                            firsts):
            claimed, ended, first_ended = row[:3]
            waits = waiting.answer(row[wait_at], chunks)
            since = []
            if first is not None:
                due_ms, due, created = next(held)
                since.append(_number(due_ms, 1000) or _number(due) or
                             _number(created))
            if waits.first_due is not None and waits.first_due <= now:
                since.append(waits.first_due)
            if first_ended:
                since.append(first_ended[0][1])
            since = [s for s in since if s is not None]
            found[name] = base.QueueStats(
                delayed=waits.total - waits.due,
                ready=readies.count(row[ready_at]) + waits.due + ended,
                claimed=claimed - ended,
                available_since=min(since) if since else None,
                next_due=waits.next_due)
        return found

    def totals(self):
        """The store's StoreStats: two ZCARDs and an HGETALL, one round
        trip."""
        with self.driver.connection.pipeline(transaction=False) as pipe:
            pipe.zcard(keys.PUSHES)
            pipe.zcard(keys.FAILED_PUSHES_AT)
            pipe.hgetall(keys.METRICS)
            pending, failed, counters = pipe.execute()
        return base.StoreStats(pending, failed, counts.Counted.of_fields(
            {encodeutils.safe_decode(field): value
             for field, value in counters.items()}))
