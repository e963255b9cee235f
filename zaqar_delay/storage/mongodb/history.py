"""Read and replay a queue's history on ``mongodb.delay``.

A message posted while its queue has ``_history_ttl`` carries its
history in its own document (``updates.record``), each event appended by
the update that makes the change it records:

==============  =========================================================
Field           Holds
==============  =========================================================
``h``           the queue's ``_history_ttl`` when it was posted (s)
``hv``          its events, in order: ``k`` the kind, ``t`` Zaqar's time
                (UNIX seconds), and the kind's fields (``ttl delay due
                dedup``; ``claim count``; ``claim wait``; ``claim to
                as``; ``claim popped``; ``to as``), as in the redis
                stream; a posted event's body is the document's ``b``
``s``           4 (processed) once deleted or dead-lettered: kept, in no
                live state, until ``e``
``a``           processed: when
``e``           processed: ``a`` + ``h``, removed then by upstream's TTL
                index on ``e``
==============  =========================================================

Reading a queue's history in a time range reads its processed documents
from ``since`` on (the ``p_q s a`` index) and its live ones that keep
history (the ``p_q s k`` index, one state at a time): O(processed in
the range + live messages of the queue).
"""

from zaqar.storage.mongodb import utils

from zaqar_delay import dedup
from zaqar_delay.history import events as history
from zaqar_delay.history import replay
from zaqar_delay.storage import history as stored
from zaqar_delay.storage.mongodb import queries
from zaqar_delay.storage.mongodb import updates

LIVE = (queries.READY, queries.WAITING, queries.CLAIMED)
FIELDS = {'_id': 1, 'b': 1, 'hv': 1}


def _events(doc):
    mid = str(doc['_id'])
    for event in doc.get('hv') or ():
        fields = {name: '' if value is None else str(value)
                  for name, value in event.items() if name not in 'kt'}
        if event['k'] == history.POSTED:
            fields['body'] = doc.get('b')
        yield history.Event(event['t'], mid, event['k'], fields)


def read(collection, scope, since=None, until=None):
    """The queue's events with times in [since, until] (None: open), in
    time order (the order of the changes for events of one message)."""
    docs = list(queries.find(
        collection, queries.processed_since(scope, since or 0),
        projection=FIELDS))
    for state in LIVE:
        kept = queries.in_state(scope, state)
        kept.filter['h'] = {'$gt': 0}
        docs += queries.find(collection, kept, projection=FIELDS)
    found = [event for doc in docs for event in _events(doc)]
    found.sort(key=lambda event: event.at)
    return list(history.select(found, since, until))


def events(driver, queue, project, since=None, until=None):
    """``read`` with a ``mongodb.delay`` data driver."""
    return read(driver.message_controller.collection(queue, project),
                utils.scope_queue_name(queue, project), since, until)


class Replayer(stored.Replayer):
    """Replays a queue's messages with a ``mongodb.delay`` data driver.
    Each is posted with the replay's dedup digest as its identity (held
    for its ttl), then a ``replayed`` event is appended to its history:
    the post and that update per message, besides reading the
    history."""

    def read(self, queue, project, since):
        return events(self.driver, queue, project, since)

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
