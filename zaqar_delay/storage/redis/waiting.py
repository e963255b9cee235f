"""Read a queue's waiting messages without changing them, for stats and
metrics.

Waiting messages are kept in chunks (``scripts/index.lua``): the count
and the earliest due time of the chunks are exact, but how many of
them came due (and wait for a claim or list to promote them) is read
chunk by chunk, from the first ``DUE_CHUNKS`` chunks holding due ones
only. Two pipelined rounds: ``ask`` queues three reads per queue,
``ask_chunks`` two per due chunk found, ``answer`` sums them up.
"""

import collections

# Chunks holding due messages read, at most, per queue and call.
DUE_CHUNKS = 64

# total: waiting messages; due: those of them whose time came; first_due:
# the earliest due time; next_due: the earliest one after now.
Waiting = collections.namedtuple('Waiting', 'total due first_due next_due')


def ask(pipe, index, now):
    """Queue a queue's first reads on ``pipe``: three replies."""
    pipe.get(index.waiting_count)
    pipe.zrangebyscore(index.due, '-inf', now, start=0, num=DUE_CHUNKS,
                       withscores=True)
    pipe.zrangebyscore(index.due, '(%r' % now, '+inf', start=0, num=1,
                       withscores=True)


def ask_chunks(pipe, index, replies, now):
    """Queue the reads of the due chunks the three ``replies`` of ``ask``
    found; two replies each."""
    for c, _ in replies[1]:
        chunk = index.chunk(c.decode())
        pipe.zcount(chunk, '-inf', now)
        pipe.zrangebyscore(chunk, '(%r' % now, '+inf', start=0, num=1,
                           withscores=True)
    return 2 * len(replies[1])


def answer(replies, chunk_replies):
    """The ``Waiting`` of a queue from its replies."""
    total = int(replies[0] or 0)
    due_chunks, later = replies[1], replies[2]
    nexts = [found[0][1] for found in chunk_replies[1::2] if found]
    if later:
        nexts.append(later[0][1])
    first = due_chunks[0][1] if due_chunks else (
        later[0][1] if later else None)
    return Waiting(total, sum(chunk_replies[0::2]), first,
                   min(nexts) if nexts else None)


def read(client, index, now):
    """The ``Waiting`` of one queue: two round trips."""
    with client.pipeline(transaction=False) as pipe:
        ask(pipe, index, now)
        replies = pipe.execute()
    with client.pipeline(transaction=False) as pipe:
        ask_chunks(pipe, index, replies, now)
        chunk_replies = pipe.execute()
    return answer(replies, chunk_replies)


def ids(client, index):
    """{id: due time} of every waiting message of a queue. Reads every
    chunk: for tools and tests, not for a request."""
    found = {}
    for c in client.zrange(index.waiting, 0, -1):
        for rank, due in client.zrange(index.chunk(c.decode()), 0, -1,
                                       withscores=True):
            mids = client.zrangebyscore(index.messages, rank, rank)
            if mids:
                found[mids[0].decode()] = due
    return found
