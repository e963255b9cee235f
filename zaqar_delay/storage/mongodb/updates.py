"""The updates ``mongodb.delay`` makes to a document's state, as
server-side pipeline expressions (one atomic update each)."""

from zaqar_delay import retry
from zaqar_delay.storage.mongodb import queries

READY, WAITING, CLAIMED = queries.READY, queries.WAITING, queries.CLAIMED


# Set ``s`` and ``a`` from a document's own ``d`` and claim (``c.e``):
# claimed while its claim lives, waiting while ``d`` is ahead, else ready.
# A document without ``d`` is due.
def state_update(now):
    claimed = {'$and': [{'$ne': [{'$ifNull': ['$c.id', None]}, None]},
                        {'$gt': [{'$ifNull': ['$c.e', 0]}, now]}]}
    waiting = {'$gt': [{'$ifNull': ['$d', 0]}, now]}
    return [{'$set': {
        's': {'$cond': [claimed, CLAIMED, {'$cond': [waiting, WAITING,
                                                     READY]}]},
        'a': {'$cond': [claimed, '$c.e', {'$cond': [waiting, '$d', 0]}]},
    }}]


def give_back(since, now):
    """The update of a document a claim gives back at ``since`` (a time,
    or ``'$c.e'``: when its claim expired): due again ``c.b`` seconds
    later if its claim set a retry backoff, then its state."""
    wait = {'$ifNull': ['$c.b', 0]}
    return [{'$set': {'d': {'$cond': [{'$gt': [wait, 0]},
                                      {'$add': [since, wait]}, '$d']}}}
            ] + state_update(now)


def backoff_seconds(backoff, count):
    """``c.b`` of a document claimed ``count`` times (an expression):
    ``retry.seconds`` on the server."""
    initial, factor, longest = retry.terms(backoff)
    return {'$ceil': {'$min': [longest, {'$multiply': [
        initial, {'$pow': [factor, {'$subtract': [count, 1]}]}]}]}}


# A pending push at the due time (zaqar-delay's notifier stage).
PENDING_PUSH = [{'$set': {'pa': '$d'}}]
