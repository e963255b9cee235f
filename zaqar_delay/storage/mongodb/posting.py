"""The documents of a ``mongodb.delay`` post in progress."""

import calendar
import datetime
import struct

from bson import objectid

from zaqar_delay import delay
from zaqar_delay.history import events as history
from zaqar_delay.storage.mongodb import queries


def due(now, wait, asked=None):
    """The due time (``d``) of a message posted at ``now`` with delay
    ``wait``: ``delay.due_at``; without a delay, the millisecond of the
    post (``delay.floor_ms``), so that it is due at once, and less than
    a second after its id's whole second (``counters``). A message that
    asked for a due time (``asked``, unix seconds) is due then, to the
    millisecond and up, or in the post's millisecond if that is later
    (its wait counted from the post: ``delay.waits_from``)."""
    if asked is None:
        return delay.due_at(now, wait) if wait else delay.floor_ms(now)
    return max(delay.due_at(asked, 0), delay.floor_ms(now))


def object_id(now):
    """A new ObjectId whose time is ``now``'s second (Zaqar's clock,
    not pymongo's): its other eight bytes are a fresh ObjectId's, unique
    as pymongo makes them."""
    return objectid.ObjectId(struct.pack('>I', int(now)) +
                             objectid.ObjectId().binary[4:])


class Posting:
    """A message collection whose inserts write each document as being
    posted (``s`` POSTING, ``a`` the time): what upstream's post inserts
    is in no state a claim, list or stats reads until ``post`` is done.

    Each document gets its due time ``d`` to the millisecond (``due``,
    from ``delays``, the delay of each of ``messages`` in order, or the
    due time it asked for, and ``clock()`` read once per insert) and an
    ``_id`` stamped by the same clock reading (``object_id``). With
    ``kept`` (a list of (keep, dedup) per message, in order) each
    document keeps history: ``h``, ``hv`` its posted event, and ``x``
    its expiry (UNIX seconds), upstream's ``e`` moving ``h`` later: the
    TTL index keeps it past its expiry for its history."""

    def __init__(self, collection, clock, delays, kept, messages):
        self._collection, self._clock = collection, clock
        self._delays, self._kept = delays, kept
        self._messages = messages

    def insert_many(self, documents, *args, **kwargs):
        documents = list(documents)
        now = self._clock()
        waits = delay.waits_from(self._messages, self._delays,
                                 delay.due_at(now, 0))
        # Upstream inserts a post's documents in one call (``mongodb.fifo``
        # repeats it with the same list after a marker conflict: the
        # documents keep their ids and due times).
        for doc, wait, msg, kept in zip(
                documents, waits, self._messages,
                self._kept or [None] * len(documents)):
            if '_id' not in doc:
                doc.update(_id=object_id(now),
                           d=due(now, wait, msg.get(delay.DUE)))
            doc.update(s=queries.POSTING, a=now)
            if kept and 'x' not in doc:     # once, if inserted again
                keep, found = kept
                expires = calendar.timegm(doc['e'].utctimetuple())
                doc['e'] += datetime.timedelta(seconds=keep)
                doc.update(h=keep, x=expires, hv=[{
                    'k': history.POSTED,
                    't': int(now),
                    'ttl': doc['t'], 'delay': wait, 'due': doc['d'],
                    'dedup': found.digest if found else ''}])
        return self._collection.insert_many(documents, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._collection, name)
