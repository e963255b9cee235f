"""The documents of a ``mongodb.delay`` post in progress."""

import calendar
import datetime

from zaqar_delay.history import events as history
from zaqar_delay.storage.mongodb import queries


class Posting:
    """A message collection whose inserts write each document as being
    posted (``s`` POSTING, ``a`` the time): what upstream's post inserts
    is in no state a claim, list or stats reads until ``post`` is done.
    With ``kept`` (a list of (keep, delay, dedup) per message, in order)
    each document keeps history: ``h``, ``hv`` its posted event, and
    ``x`` its expiry (UNIX seconds), upstream's ``e`` moving ``h``
    later: the TTL index keeps it past its expiry for its history."""

    def __init__(self, collection, now, kept):
        self._collection, self._now, self._kept = collection, now, kept

    def insert_many(self, documents, *args, **kwargs):
        documents = list(documents)
        # Upstream inserts a post's documents in one call (``mongodb.fifo``
        # repeats it with the same list after a marker conflict).
        for doc, kept in zip(documents,
                             self._kept or [None] * len(documents)):
            doc.update(s=queries.POSTING, a=self._now)
            if kept and 'x' not in doc:     # once, if inserted again
                keep, wait, found = kept
                expires = calendar.timegm(doc['e'].utctimetuple())
                doc['e'] += datetime.timedelta(seconds=keep)
                doc.update(h=keep, x=expires, hv=[{
                    'k': history.POSTED, 't': doc['d'] - wait,
                    'ttl': doc['t'], 'delay': wait, 'due': doc['d'],
                    'dedup': found.digest if found else ''}])
        return self._collection.insert_many(documents, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._collection, name)
