"""``mongodb.delay`` gives back claimed documents: when their claim is
released, or found expired; those given back with a retry backoff are
counted (``counters``: ``released_backoff``, ``expired_backoff``).

A claim sets a backoff wait (``c.b``) on all its documents or on none
(the queue's ``_retry_backoff`` when it claimed), so a queue without
``_retry_backoff`` pays no request for the counters: a release is one
update, a promotion of ended claims one read and one update, as they
were before they counted.
"""

from zaqar_delay.history import events as history
from zaqar_delay.storage.mongodb import counters
from zaqar_delay.storage.mongodb import queries
from zaqar_delay.storage.mongodb import updates

CLAIMED = queries.CLAIMED


def _backoff(doc):
    return (doc.get('c') or {}).get('b') or 0


def released(driver, collection, held, now):
    """Give back the documents ``held`` (a filter: a claim's claimed
    documents) at ``now`` (``driver.now_ms()``: a backoff counts from
    that millisecond; the claim's end and the event take its second);
    count those with a backoff. One update for a claim without a
    backoff; else two, and the counters' ``$inc``."""
    update = ([updates.given_back(history.RELEASED, int(now)),
               {'$set': {'c.id': None, 'c.e': int(now)}}] +
              updates.give_back(now, now))
    # Those without a backoff first: only when that finds none does a
    # second update give back (and count) those with one.
    if collection.update_many(
            dict(held, **{'c.b': {'$not': {'$gt': 0}}}),
            update).modified_count:
        return
    backoff = collection.update_many(held, update).modified_count
    counters.add(driver, {'released_backoff': backoff})


def expired(driver, collection, scope, now, batch):
    """Give back at most ``batch`` documents of ``scope`` whose claim
    ended by ``now`` (``driver.now_ms()``; found on the ``p_q s a``
    index, with their ``c.b``), as of their claim's end; count those
    given back with a backoff. One read and one update when none has a
    backoff; else an update of those with one, its count added to the
    counters, and an update of the others if any. Each update is
    guarded by the state and its end, so a document another process
    gave back meanwhile is neither changed nor counted."""
    ended = queries.ended(scope, CLAIMED, now)
    found = list(queries.find(collection, ended, limit=batch,
                              projection={'_id': 1, 'c.b': 1}))
    plain = [doc['_id'] for doc in found if not _backoff(doc) > 0]
    backoff = [doc['_id'] for doc in found if _backoff(doc) > 0]
    update = ([updates.given_back(history.CLAIM_EXPIRED, '$c.e')] +
              updates.give_back('$c.e', now))

    def give_back(ids):
        return collection.update_many(
            {'_id': {'$in': ids}, 's': CLAIMED, 'a': {'$lte': now}},
            update).modified_count

    if plain:
        give_back(plain)
    if backoff:
        counters.add(driver, {'expired_backoff': give_back(backoff)})
