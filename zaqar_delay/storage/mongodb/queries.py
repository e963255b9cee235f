"""The queries ``mongodb.delay`` runs on a hot path, one shape each.

Each is an equality prefix (``p_q`` and one state, or ``p_q`` and a claim
id) plus one range, on one index: no ``$in`` over states, no null
equality (``tx: None``) and no ``hint``. A real MongoDB plans these forms
with the index either way; the MongoDB wire-protocol server the tests
use (secantusdb) plans them with it only in this form, and reads every
key inside the index bounds, ``limit`` or not, so the bounds must leave
out what the query does not want (measured: ``tests/functional/storage/
mongodb/test_plans.py``).

The range on ``k`` (``k > after``, ``after`` being -1 from the start) is
what makes a planner take ``delay_state`` for a marker-ordered read;
without it secantusdb takes ``delay_ends`` and sorts.

``tx`` needs no filter: upstream's two-phase posts clear it before
``post`` returns, and only then does ``mongodb.delay`` give a document its
state ``s``; until then it is ``POSTING``, in no other state's bounds,
and a document without ``s`` is in none.
"""

import collections

READY, WAITING, CLAIMED, POSTING = 0, 1, 2, 3
# Deleted (or dead-lettered) from a queue with ``_history_ttl``: kept
# for its history until ``e``, in no live state's bounds.
PROCESSED = 4

# Claims, pops and list pages: one state, in marker order.
STATE_INDEX = [('p_q', 1), ('s', 1), ('k', 1)]
# Promotion and stats: when a wait or a claim ends.
ENDS_INDEX = [('p_q', 1), ('s', 1), ('a', 1)]
# Pending pushes (zaqar-delay's notifier): when a message is to be
# pushed; only documents with a pending push have ``pa``.
PUSH_INDEX = [('pa', 1)]
INDEXES = {'delay_state': STATE_INDEX, 'delay_ends': ENDS_INDEX,
           'delay_push': PUSH_INDEX}
# Upstream's index of a claim's documents (``p_q c.id k``).
CLAIM_INDEX = 'claimed'

Query = collections.namedtuple('Query', 'filter sort index')


def in_state(scope, state, after=-1, sort=1):
    """Documents of one state with a marker above ``after``, in marker
    order (``sort`` 1) or reversed (-1): claims, pops, list pages,
    first and last."""
    return Query({'p_q': scope, 's': state, 'k': {'$gt': after}},
                 [('k', sort)], 'delay_state')


def ended(scope, state, now):
    """Waiting or claimed documents whose wait or claim has ended:
    promotion."""
    return Query({'p_q': scope, 's': state, 'a': {'$lte': now}}, None,
                 'delay_ends')


def abandoned(scope, before):
    """Documents of posts that started at ``before`` or earlier and never
    finished (the request died between its writes): promotion deletes
    them."""
    return Query({'p_q': scope, 's': POSTING, 'a': {'$lte': before}}, None,
                 'delay_ends')


def ending_later(scope, state, now):
    """Waiting or claimed documents whose wait or claim goes on, soonest
    end first: stats (counts and ``next_due``)."""
    return Query({'p_q': scope, 's': state, 'a': {'$gt': now}},
                 [('a', 1)], 'delay_ends')


def processed_since(scope, since):
    """Documents processed at ``since`` or later (``a`` being when):
    a history read."""
    return Query({'p_q': scope, 's': PROCESSED, 'a': {'$gte': since}},
                 [('a', 1)], 'delay_ends')


def of_claim(scope, claim_id):
    """The documents a claim holds, in marker order: a claim's read-back
    and its dead letters."""
    return Query({'p_q': scope, 'c.id': claim_id}, [('k', 1)], CLAIM_INDEX)


def push_due(now):
    """Documents whose push is due (or whose lease ended), soonest first:
    a dispatcher's take."""
    return Query({'pa': {'$lte': now}}, [('pa', 1)], 'delay_push')


def push_next(before=None):
    """Documents with a pending push (due before ``before``, if given),
    soonest first: the next due time. secantusdb reads every key in the
    bounds: 0.45 ms with no pending push, 204 ms with 10,000 due later,
    0.38 ms for the same read bounded by now + half a second."""
    bounds = {'$gte': 0}
    if before is not None:
        bounds['$lt'] = before
    return Query({'pa': bounds}, [('pa', 1)], 'delay_push')


def find(collection, query, limit=0, **kwargs):
    """A cursor of ``query`` on ``collection``."""
    return collection.find(query.filter, sort=query.sort, limit=limit,
                           **kwargs)
