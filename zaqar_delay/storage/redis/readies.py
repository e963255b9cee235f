"""Read a queue's ready messages without changing them, for metrics.

Ready messages are kept in chunks of ranks, listed and counted
(``scripts/index.lua``), with the rank -> id set of earlier versions
beside them until ``migrate`` empties it. Pipelined rounds: ``ask``
queues four reads per queue, ``ask_first`` two more for its first
chunk (a range of at most ``keys.CHUNK`` ranks of ``messages``), and
``count`` and ``first`` answer: O(log n) per queue, whatever its
backlog.
"""

from zaqar_delay.storage.redis import keys

ASKED = 4  # replies of ``ask``


def _rank(c, offset):
    """The rank of ``offset``, a member of ready chunk ``c``."""
    return int(c) * keys.CHUNK + int(offset)


def ask(pipe, index):
    """Queue a queue's first reads on ``pipe``: ``ASKED`` replies."""
    pipe.get(index.ready_count)
    pipe.zcard(index.ready)
    pipe.zrange(index.ready_chunks, 0, 0)
    pipe.zrange(index.ready, 0, 0, withscores=True)


def count(replies):
    """How many messages are ready (promoted), from ``ask``'s replies."""
    return int(replies[0] or 0) + replies[1]


def ask_first(pipe, index, replies):
    """Queue the reads naming the first chunked ready message; return how
    many replies they give (0 or 2)."""
    if not replies[2]:
        return 0
    low = int(replies[2][0]) * keys.CHUNK
    pipe.zrange(index.ready_chunk(replies[2][0].decode()), 0, 0)
    pipe.zrangebyscore(index.messages, low, low + keys.CHUNK - 1,
                       withscores=True)
    return 2


def first(replies, first_replies):
    """The id of the ready message of the lowest rank, or None."""
    found = [(rank, mid) for mid, rank in replies[3]]
    if first_replies and first_replies[0]:
        rank = _rank(replies[2][0], first_replies[0][0])
        found += [(at, mid) for mid, at in first_replies[1] if at == rank]
    return min(found)[1] if found else None


def ids(client, index):
    """The ids of a queue's ready messages, by rank (chunked, then the
    earlier versions' set). Reads every chunk: for tools and tests, not
    for a request."""
    found = []
    for c in client.zrange(index.ready_chunks, 0, -1):
        for offset in client.zrange(index.ready_chunk(c.decode()), 0, -1):
            rank = _rank(c, offset)
            found += client.zrangebyscore(index.messages, rank, rank)
    found += client.zrange(index.ready, 0, -1)
    return [mid.decode() for mid in found]
