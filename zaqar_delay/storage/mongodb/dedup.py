"""Which message holds a dedup key value, in a ``mongodb.delay`` store.

One collection per message database, ``delay_dedup``: a document per
queue and key value, ``_id`` ``<p_q>/<digest>``, ``m`` the id of the
message holding it, ``w`` the end of its window (Zaqar's clock) and
``x`` the same as a date, for a TTL index that removes it later. The
unique ``_id`` makes the first writer win; a value whose window ended or
whose message is gone is taken over with an update conditional on the
old holder, so only one of two racing posts takes it.
"""

import datetime

from pymongo import errors as mongo_errors
from zaqar.storage.mongodb import utils

from zaqar_delay.storage.mongodb import queries

COLLECTION = 'delay_dedup'
ATTEMPTS = 4    # takeovers lost to racing posts before giving up


def _date(timestamp):
    return datetime.datetime.fromtimestamp(
        timestamp, tz=datetime.timezone.utc).replace(tzinfo=None)


class Holders:
    """The holders of one queue's key values."""

    _indexed = set()

    def __init__(self, messages, scope):
        self._messages = messages
        self._keys = messages.database[COLLECTION]
        self._scope = scope
        name = (messages.database.name, COLLECTION)
        if name not in Holders._indexed:
            self._keys.create_index('x', name='delay_dedup_ttl',
                                    expireAfterSeconds=0)
            Holders._indexed.add(name)

    def _live(self, oid, now):
        # A processed message (kept for its history) holds nothing.
        doc = self._messages.find_one(
            {'_id': oid, 'p_q': self._scope, 'e': {'$gt': _date(now)}},
            projection={'s': 1, 'x': 1})
        # Nor one past its expiry (``x``), kept for its history.
        return (doc is not None and doc.get('s') != queries.PROCESSED
                and not (doc.get('x') or now + 1) <= now)

    def hold(self, dedup, oid, now):
        """The id of the message that holds ``dedup``'s value: ``oid``
        when it takes it, else a live message's posted in the window.

        ``oid`` must already be written (being posted), so that a
        racing post that finds it holding the value sees it live.
        """
        key = '%s/%s' % (self._scope, dedup.digest)
        until = now + dedup.window
        mine = {'m': oid, 'w': until, 'x': _date(until)}
        for _ in range(ATTEMPTS):
            try:
                self._keys.insert_one(dict(mine, _id=key))
                return oid
            except mongo_errors.DuplicateKeyError:
                pass
            held = self._keys.find_one({'_id': key})
            if held is None:
                continue    # removed meanwhile: insert again
            if held['m'] == oid or (held['w'] > now and
                                    self._live(held['m'], now)):
                return held['m']
            taken = self._keys.update_one({'_id': key, 'm': held['m']},
                                          {'$set': mine})
            if taken.matched_count:
                return oid
        return oid


def answers(collection, scope, ids, dedups, now):
    """The id answering for each message just posted to the queue of
    ``scope`` (its ``p_q``), with its ``Dedup`` (or None): its own, or
    that of the live message holding its key value, whose posted
    document, not yet in any state, is then deleted."""
    if not any(dedups):
        return ids
    holders = Holders(collection, scope)
    found_ids, dropped = [], []
    for mid, found in zip(ids, dedups):
        held = found and str(holders.hold(found, utils.to_oid(mid), now))
        if held and held != mid:
            dropped.append(utils.to_oid(mid))
        found_ids.append(held or mid)
    if dropped:
        collection.delete_many({'_id': {'$in': dropped},
                                's': queries.POSTING})
    return found_ids
