"""The pending pushes of a ``mongodb.delay`` store.

A pending push is the ``pa`` field of the message document itself
(doc/source/mongodb.rst), written with the message's state,
so it goes when the message is deleted or expires. A dispatcher takes
due ones with one guarded update each (``pa <= now`` becomes the lease
expiry), so two dispatchers never take the same push while its lease
lives. ``pd`` lists the subscribers that answered 2xx for a push not
yet done, so that a dispatcher taking it after another's lease ended
skips them; ``done`` unsets both.

Failed pushes (``pending.FAILED_FIELDS``) are documents of the
``zaqar_delay_failed_pushes`` collection of the first message database
(``_id`` the record key; indexed on ``at``); adding one deletes those
older than the retention.
"""

from zaqar.storage.mongodb import utils

from zaqar_delay import pending
from zaqar_delay.history import events as history
from zaqar_delay.storage import base
from zaqar_delay.storage.mongodb import queries
from zaqar_delay.storage.mongodb import side
from zaqar_delay.storage.mongodb import updates


FAILED = 'zaqar_delay_failed_pushes'


class Pushes(base.PushStore):
    """What a dispatcher needs of the store: take, delivered, done,
    next due."""

    def __init__(self, driver):
        super().__init__(driver)
        self._failed = side.Collection(driver, FAILED, 'at', 'failed_at')

    def _collections(self):
        return [db.messages for db in self.driver.message_databases]

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def take(self, now, limit, lease):
        """Up to ``limit`` pushes due at ``now`` (UNIX seconds, a float:
        a pending push's ``pa`` is its message's ``d``, to the
        millisecond), held for ``lease`` seconds, each with the ``pa``
        it was taken at (``due``): one guarded update per push, O(log n)
        each."""
        due = queries.push_due(now)
        taken = []
        for collection in self._collections():
            while len(taken) < limit:
                doc = collection.find_one_and_update(
                    due.filter, {'$set': {'pa': now + lease}},
                    sort=due.sort, projection={'p_q': 1, 'pd': 1, 'pa': 1})
                if doc is None:
                    break
                # ``<project>/<queue>``: a project id may contain '/',
                # a queue name never does.
                project, queue = doc['p_q'].rsplit('/', 1)
                taken.append(pending.Push(
                    project or None, queue, str(doc['_id']),
                    (collection, doc['_id'], now + lease),
                    frozenset(doc.get('pd') or ()), doc['pa']))
        return taken

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def delivered(self, records):
        """Record, for each ``(push, subscribers)``, the subscribers
        that answered 2xx for a push not done yet, while its lease
        holds: one update each."""
        for push, subscribers in records:
            collection, oid, lease_expires = push.handle
            collection.update_one({'_id': oid, 'pa': lease_expires},
                                  {'$set': {'pd': sorted(subscribers)}})

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def done(self, pushes, attempts=None):
        """Forget pushes that were made: only while this lease holds.
        ``attempts`` (a tuple of ``pending.Attempt`` per push) are
        appended as ``pushed`` events to a message that keeps history,
        lease or not (they were made), in the same update: one each."""
        for done, tried in zip(pushes, attempts or [()] * len(pushes)):
            collection, oid, lease_expires = done.handle
            if not tried:
                collection.update_one({'_id': oid, 'pa': lease_expires},
                                      {'$unset': {'pa': '', 'pd': ''}})
                continue
            mine = {'$eq': ['$pa', lease_expires]}
            collection.update_one({'_id': oid}, [
                updates.record_all(
                    {'k': history.PUSHED, 't': attempt.at,
                     'subscriber': {'$literal': attempt.subscriber},
                     'status': '' if attempt.status is None
                     else attempt.status} for attempt in tried),
                {'$set': {'pa': {'$cond': [mine, '$$REMOVE', '$pa']},
                          'pd': {'$cond': [mine, '$$REMOVE', '$pd']}}}])

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def next_due(self, before=None):
        """The earliest due time (or lease expiry) pending, or None
        (``base.PushStore.next_due``): one indexed read per database,
        bounded by ``before``."""
        first = queries.push_next(before)
        found = [doc['pa'] for collection in self._collections()
                 for doc in queries.find(collection, first, limit=1,
                                         projection={'pa': 1})]
        return min(found, default=None)

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def pending(self, limit):
        """Up to ``limit`` pending pushes, earliest due first, as
        ``pending.listed`` records: one indexed read per database."""
        first = queries.push_next()
        found = []
        for collection in self._collections():
            for doc in queries.find(collection, first, limit=limit,
                                    projection={'p_q': 1, 'pa': 1,
                                                'pd': 1}):
                project, queue = doc['p_q'].rsplit('/', 1)
                found.append(pending.listed(pending.Push(
                    project or None, queue, str(doc['_id']), None,
                    frozenset(doc.get('pd') or ())), doc['pa']))
        return sorted(found, key=lambda record: record['at'])[:limit]

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def fail(self, record, retention):
        """Keep a failed push's record; drop those older than
        ``retention`` seconds."""
        collection = self._failed()
        collection.delete_many({'at': {'$lt': record['at'] - retention}})
        collection.replace_one({'_id': record['key']}, record, upsert=True)

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def failed(self, limit):
        """Up to ``limit`` failed-push records, oldest first."""
        return [{k: v for k, v in doc.items() if k != '_id'}
                for doc in self._failed().find().sort('at', 1).limit(limit)]

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def forget_failed(self, records):
        """Delete failed-push records (as ``failed`` gave them)."""
        if records:
            self._failed().delete_many(
                {'_id': {'$in': [record['key'] for record in records]}})
