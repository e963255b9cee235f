"""The updates ``mongodb.delay`` makes to a document's state, as
server-side pipeline expressions (one atomic update each)."""

import datetime

from zaqar_delay.history import events as history
from zaqar_delay import retry
from zaqar_delay.storage.mongodb import queries

READY, WAITING, CLAIMED = queries.READY, queries.WAITING, queries.CLAIMED


# Set ``s`` and ``a`` from a document's own ``d`` and claim (``c.e``):
# claimed while its claim lives, waiting while ``d`` is ahead, else ready,
# at ``now`` (``driver.now_ms()``). A document without ``d`` is due.
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
    """The update of a document a claim gives back at ``since`` (a time
    to the millisecond, or ``'$c.e'``: when its claim expired): due
    again ``c.b`` seconds later (``delay.due_at(since, c.b)``) if its
    claim set a retry backoff, then its state at ``now``."""
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


# History (a queue with ``_history_ttl``): a document posted while it was
# set has ``h`` (its seconds) and ``hv``, its events, each appended by
# the update that makes the change it records.
def _date(timestamp):
    return datetime.datetime.fromtimestamp(
        timestamp, tz=datetime.timezone.utc).replace(tzinfo=None)


def _kept():
    return {'$gt': [{'$ifNull': ['$h', 0]}, 0]}


def record(kind, now, **fields):
    """A stage appending a ``kind`` event at ``now`` with ``fields``
    (values or expressions on the document as the stage finds it) to
    ``hv``, on a document that keeps history; a no-op on others."""
    return record_all([dict(fields, k=kind, t=now)])


def record_all(events):
    """``record`` of several events (dicts with ``k`` and ``t``)."""
    return {'$set': {'hv': {'$cond': [_kept(), {'$concatArrays': [
        {'$ifNull': ['$hv', []]}, list(events)]}, '$$REMOVE']}}}


def processed(now, kind, **fields):
    """The update of a document leaving its queue with history kept: the
    ``kind`` event, then processed at ``now`` until ``h`` seconds later
    (``e``, upstream's TTL index), its claim and pending push gone."""
    return [record(kind, now, **fields),
            {'$set': {'s': queries.PROCESSED, 'a': now, 'c.id': None,
                      'c.e': now, 'e': {'$add': [
                          _date(now), {'$multiply': ['$h', 1000]}]}}},
            {'$unset': ['pa', 'pd']}]


# Release and claim expiry: which claim, and the backoff wait it set;
# ``at``: now, or ``'$c.e'`` (a claim expiry is timed when it ended).
def given_back(kind, at):
    return record(kind, at, claim='$c.id', wait={'$ifNull': ['$c.b', 0]})


# Expiry. A document that keeps history has ``x``, its expiry (UNIX
# seconds), and ``e`` (upstream's, the TTL index's) ``h`` seconds later.
def _after_h(seconds):
    """The date ``h`` seconds after ``seconds`` (an expression)."""
    return {'$add': [_date(0), {'$multiply': [
        {'$add': [seconds, '$h']}, 1000]}]}


def outlive(expires, grace, ttl):
    """The ``$set`` fields that make a claimed document outlive its
    claim (ending at ``expires``) and its ``grace``, as upstream's claim
    does with ``e``; on a document that keeps history, ``x`` is its
    expiry (and ``e`` ``h`` later)."""
    kept = _kept()
    outlives = {'$cond': [kept, {'$lt': [{'$ifNull': ['$x', 0]}, expires]},
                          {'$lt': ['$e', _date(expires)]}]}
    return {
        'e': {'$cond': [outlives, {'$cond': [
            kept, _after_h(expires + grace), _date(expires + grace)]},
            '$e']},
        't': {'$cond': [outlives, ttl + grace, '$t']},
        'x': {'$cond': [kept, {'$cond': [outlives, expires + grace, '$x']},
                        '$$REMOVE']},
    }


# A ready document that keeps history, found past its expiry ``x``: the
# ``expired`` event at ``x`` (``count``: its claims, '' for none), then
# processed then, until ``h`` later.
EXPIRED = [
    record(history.EXPIRED, '$x', count={'$cond': [
        {'$gt': [{'$ifNull': ['$c.c', 0]}, 0]}, '$c.c', '']}),
    {'$set': {'s': queries.PROCESSED, 'a': '$x', 'c.id': None,
              'e': _after_h('$x')}},
    {'$unset': ['pa', 'pd']}]
