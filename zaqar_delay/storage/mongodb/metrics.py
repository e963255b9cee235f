"""Read a ``mongodb.delay`` store for metrics: indexed counts only.

Per queue: at most five counts and four one-document reads
(``requests``), each an equality prefix (``p_q`` and a state) plus at
most one range on the ``delay_ends`` or ``delay_state`` index
(``queries``), so MongoDB answers each from the index;
a count costs O(log n + counted) keys. The counts of the three states
come first, and a request whose state holds no document is not made.
Queues are found with ``distinct('p_q')`` (the ``p_q`` prefix of those
indexes). Store-wide: the ``pa`` index count of pending pushes, the
failed-push records, and the counters document (``counters``).
"""

import collections

from zaqar.storage.mongodb import utils

from zaqar_delay.storage import base
from zaqar_delay.storage.mongodb import counters
from zaqar_delay.storage.mongodb import pushes
from zaqar_delay.storage.mongodb import queries

READY, WAITING, CLAIMED = queries.READY, queries.WAITING, queries.CLAIMED


def collection_of(data, project, queue):
    """The collection holding the messages of ``project``'s ``queue``."""
    databases = data.message_databases
    return databases[utils.get_partition(len(databases), queue,
                                         project)].messages


#: One request of a queue's reading: a count of ``filter`` (``sort``
#: None), or the first document in ``sort`` order, with ``projection``.
Request = collections.namedtuple('Request', 'name filter sort projection')


def requests(scope, now):
    """The requests that read the queue ``scope`` at ``now``, named."""
    ready = queries.in_state(scope, READY)
    due = queries.ended(scope, WAITING, now)
    ended = queries.ended(scope, CLAIMED, now)
    later = queries.ending_later(scope, WAITING, now)
    return [
        Request('ready', ready.filter, None, None),
        Request('waiting', {'p_q': scope, 's': WAITING}, None, None),
        Request('claimed', {'p_q': scope, 's': CLAIMED}, None, None),
        Request('due_waiting', due.filter, None, None),
        Request('ended', ended.filter, None, None),
        Request('first_ready', ready.filter, [('k', 1)], {'d': 1}),
        Request('first_due', due.filter, [('a', 1)], {'a': 1}),
        Request('first_ended', ended.filter, [('a', 1)], {'a': 1}),
        Request('next_due', later.filter, later.sort, {'a': 1}),
    ]


def run(collection, request):
    """The count, or the first document (None), ``request`` asks for."""
    if request.sort is None:
        return collection.count_documents(request.filter)
    return collection.find_one(request.filter, sort=request.sort,
                               projection=request.projection)


def _one(collection, scope, now):
    # The three state counts, then only the requests whose answer they
    # leave open: none of a state the queue has no document in (an idle
    # queue costs three counts; one with ready and delayed messages,
    # six).
    named = {request.name: request for request in requests(scope, now)}

    def get(name):
        return run(collection, named[name])

    ready, waiting, claimed = get('ready'), get('waiting'), get('claimed')
    due_waiting = get('due_waiting') if waiting else 0
    ended = get('ended') if claimed else 0
    since = []
    first = get('first_ready') if ready else None
    if first is not None:
        since.append(first.get('d') or
                     first['_id'].generation_time.timestamp())
    for name, found in (('first_due', due_waiting), ('first_ended', ended)):
        doc = get(name) if found else None
        if doc is not None:
            since.append(doc['a'])
    upcoming = get('next_due') if waiting > due_waiting else None
    return base.QueueStats(
        delayed=waiting - due_waiting, ready=ready + due_waiting + ended,
        claimed=claimed - ended, available_since=min(since) if since else None,
        next_due=upcoming['a'] if upcoming else None)


class Metrics(base.MetricsReader):
    """The metrics reader of a ``mongodb.delay`` store."""

    def queues(self, control, cache, pool=''):
        """Every queue holding messages."""
        for collection in self.driver.message_databases:
            for scope in sorted(collection.messages.distinct('p_q')):
                # ``<project>/<queue>``: a queue name never has '/'.
                project, queue = scope.rsplit('/', 1)
                yield project or None, queue

    def read(self, named, now):
        return {(project, queue): _one(
            collection_of(self.driver, project, queue),
            '%s/%s' % (project or '', queue), now)
            for project, queue in named}

    def totals(self):
        """The store's StoreStats: a count on the ``pa`` index per message
        collection, of the failed-push records, and one read of the
        counters."""
        pending = sum(db.messages.count_documents({'pa': {'$gte': 0}})
                      for db in self.driver.message_databases)
        failed = self.driver.message_databases[0][
            pushes.FAILED].estimated_document_count()
        return base.StoreStats(pending, failed, counters.read(self.driver))
