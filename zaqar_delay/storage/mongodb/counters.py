"""The counters a ``mongodb.delay`` store keeps for the metrics exporter.

One document, ``{_id: 'store'}`` in ``COLLECTION`` of the first message
database, with the fields of ``zaqar_delay.counts.Counted``; each
change is one ``$inc`` upsert, none when there is nothing to count.
The fields and when a message counts as delayed: doc/source/mongodb.rst,
"Claim counters".
"""

from pymongo import errors

from zaqar_delay import counts

COLLECTION = 'zaqar_delay_metrics'
_ID = 'store'
# Seconds from a message's id's second to its due time, at least, for it
# to count as delayed.
DELAYED = 1


def _collection(driver):
    return driver.message_databases[0][COLLECTION]


def delayed(doc):
    """Whether a message document was delayed: due ``DELAYED`` seconds
    or more after its id's second."""
    due = doc.get('d')
    created = doc['_id'].generation_time.timestamp()
    return due is not None and due - created >= DELAYED


def claimed(docs, now, counted=None):
    """``counted`` (a new dict if None) with the claim of ``docs`` (the
    message documents a claim took) at ``now`` (``driver.now_ms()``)
    added: those that were delayed, by lateness bucket (ms), or as
    early."""
    counted = {} if counted is None else counted
    for doc in docs:
        if not delayed(doc):
            continue
        due = doc['d']
        if now < due:
            _add(counted, 'early', 1)
            continue
        late = counts.lateness_ms(now, due)
        _add(counted, counts.bucket_field(late), 1)
        _add(counted, counts.SUM, late)
        _add(counted, counts.COUNT, 1)
    return counted


def _add(counted, field, by):
    counted[field] = counted.get(field, 0) + by


def add(driver, counted):
    """Add ``counted`` ({field: n}) to the store's counters: one upsert,
    none when there is nothing to add."""
    counted = {field: by for field, by in counted.items() if by}
    if not counted:
        return
    update = {'$inc': counted}
    try:
        _collection(driver).update_one({'_id': _ID}, update, upsert=True)
    except errors.DuplicateKeyError:
        # Two first upserts raced: the document exists now.
        _collection(driver).update_one({'_id': _ID}, update)


def read(driver):
    """The store's counters, a ``counts.Counted``: one read."""
    found = _collection(driver).find_one({'_id': _ID}) or {}
    return counts.Counted.of_fields(found)
