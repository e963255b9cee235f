"""Read and replay a queue's history on ``mongodb.delay``.

A message that keeps history holds its events in its own document
(``h``, ``hv``, ``x``), each appended by the update that makes the
change it records; a processed one is kept until ``e``. Reading a time
range costs O(processed in the range + live messages of the queue).
The fields and what a crash can lose: doc/source/history.rst, "On
mongodb.delay".
"""

from zaqar.storage.mongodb import utils

from zaqar_delay import dedup
from zaqar_delay.history import events as history
from zaqar_delay.history import replay
from zaqar_delay.storage import base
from zaqar_delay.storage.mongodb import queries
from zaqar_delay.storage.mongodb import updates

LIVE = (queries.READY, queries.WAITING, queries.CLAIMED)
FIELDS = {'_id': 1, 'b': 1, 'hv': 1, 'x': 1, 's': 1, 'c.c': 1}


def past(doc, now):
    """Whether a document that keeps history is past its expiry."""
    return doc.get('x') is not None and doc['x'] <= now


def expire(collection, ids, now):
    """Mark the ready documents ``ids`` (found past their expiry at
    ``now``) processed, with their ``expired`` event: one update."""
    collection.update_many({'_id': {'$in': ids}, 's': queries.READY,
                            'x': {'$lte': now}}, updates.EXPIRED)


def ready(collection, scope, limit, now, batch):
    """The ids of the first ``limit`` ready documents not past their
    expiry, in marker order: one read. When it finds some past it, they
    are marked (``expire``) and the read made again, ``batch`` further,
    until ``limit`` are found or about ``batch`` were marked (the work
    bound of a call, ``[delay] promote_batch_size``): then fewer may be
    returned, and the next call marks more. Each is marked once."""
    size, marked = limit, 0
    while True:
        docs = list(queries.find(
            collection, queries.in_state(scope, queries.READY),
            limit=size, projection={'_id': 1, 'x': 1}))
        gone = [doc['_id'] for doc in docs if past(doc, now)]
        live = [doc['_id'] for doc in docs if not past(doc, now)]
        if gone:
            expire(collection, gone, now)
            marked += len(gone)
        if (not gone or len(live) >= limit or len(docs) < size
                or marked >= batch):
            return live[:limit]
        size = limit + batch


def _events(doc, now=None):
    mid = str(doc['_id'])
    events = doc.get('hv') or ()
    for event in events:
        fields = {name: '' if value is None else str(value)
                  for name, value in event.items() if name not in 'kt'}
        if event['k'] == history.POSTED:
            fields['body'] = doc.get('b')
        yield history.Event(event['t'], mid, event['k'], fields)
    if now is not None and doc.get('s') in LIVE and past(doc, now):
        # Past its expiry, not yet marked: expired then.
        count = (doc.get('c') or {}).get('c') or ''
        yield history.Event(doc['x'], mid, history.EXPIRED,
                            {'count': str(count)})


def read(collection, scope, now, since=None, until=None):
    """The queue's events with times in [since, until] (None: open), in
    time order (the order of the changes for events of one message), as
    they are at ``now``."""
    docs = list(queries.find(
        collection, queries.processed_since(scope, since or 0),
        projection=FIELDS))
    for state in LIVE:
        kept = queries.in_state(scope, state)
        kept.filter['h'] = {'$gt': 0}
        docs += queries.find(collection, kept, projection=FIELDS)
    found = [event for doc in docs for event in _events(doc, now)]
    found.sort(key=lambda event: event.at)
    return list(history.select(found, since, until))


class History(base.History):
    """A ``mongodb.delay`` store's history. A replay posts each message
    with the replay's dedup digest as its identity (held for its ttl),
    then appends a ``replayed`` event to its history: the post and that
    update per message, besides reading the history."""

    def events(self, queue, project, since=None, until=None):
        return read(self.messages.collection(queue, project),
                    utils.scope_queue_name(queue, project),
                    self.driver.now(), since, until)

    def post(self, queue, project, posted, target, delay, client_uuid):
        message = replay.message(posted, delay)
        message[dedup.IDENTITY] = replay.digest(project, queue,
                                                posted.message_id, target)
        new_id, = self.messages.post(target, [message], client_uuid,
                                     project=project)
        self.messages.collection(queue, project).update_one(
            {'_id': utils.to_oid(posted.message_id),
             'p_q': utils.scope_queue_name(queue, project)},
            [updates.record(history.REPLAYED, self.driver.now(),
                            to=target, **{'as': new_id})])
        return replay.Replayed(posted, new_id, False)
