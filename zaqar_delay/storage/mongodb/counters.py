"""The counters a ``mongodb.delay`` store keeps for the metrics exporter.

One document in the first message database's ``zaqar_delay_metrics``
collection, ``{_id: 'store'}``, whose fields are those of
``zaqar_delay.counts.Counted``:

=============================  ========================================
Field                          Counts
=============================  ========================================
``ms:le:<b>`` ``ms:le:inf``    claims of delayed messages whose lateness
                               (claim time minus ``d``, milliseconds)
                               is at most ``b`` (and above the previous
                               bound; not cumulative)
``ms:sum`` ``ms:count``        their lateness in ms, and how many
``early``                      claims of messages not due yet (must
                               stay 0)
``released_backoff``           messages a release gave back with a
                               retry backoff
``expired_backoff``            messages whose claim expired given back
                               with a retry backoff (by the next claim
                               or list)
``dead_lettered``              messages moved to a dead-letter queue
=============================  ========================================

A claim, release, give-back of ended claims (``giveback``) or
dead-letter adds its counts with one ``$inc`` upsert, and only when it
has something to count: a claim of messages posted without a delay adds
none. A message was delayed when its due time ``d`` is at least a
second after its id's whole second (``DELAYED``): one posted without a
delay is due in the millisecond of its post, within its id's second
(``posting``: both from one reading of Zaqar's clock), or, written by
earlier versions, at that second; one posted with a delay, or given
back with a retry backoff, is due at least a second after its post.
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
    """Whether a message document was delayed (see above)."""
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
