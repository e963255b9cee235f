"""Read a ``mongodb.delay`` store for metrics: indexed counts only.

Per queue: five counts and four one-document reads, each an equality
prefix (``p_q`` and a state) plus at most one range on the ``delay_ends``
or ``delay_state`` index (``storage.mongodb.queries``), so MongoDB
answers each from the index; a count costs O(log n + counted) keys.
Queues are found with ``distinct('p_q')`` (the ``p_q`` prefix of those
indexes). Store-wide: the ``pa`` index count of pending pushes, the
failed-push records, and the counters document
(``storage.mongodb.counters``).
"""

from zaqar.storage.mongodb import utils

from zaqar_delay.metrics import families
from zaqar_delay.storage.mongodb import counters
from zaqar_delay.storage.mongodb import pushes
from zaqar_delay.storage.mongodb import queries

READY, WAITING, CLAIMED = queries.READY, queries.WAITING, queries.CLAIMED


def queues(data, control, cache, pool=''):
    """(project, queue) of every queue holding messages."""
    for collection in data.message_databases:
        for scope in sorted(collection.messages.distinct('p_q')):
            # ``<project>/<queue>``: a queue name never has '/'.
            project, queue = scope.rsplit('/', 1)
            yield project or None, queue


def _collection(data, project, queue):
    databases = data.message_databases
    return databases[utils.get_partition(len(databases), queue,
                                         project)].messages


def read(data, named, now):
    """{(project, queue): QueueStats} of ``named`` queues at ``now``."""
    return {(project, queue): _one(
        _collection(data, project, queue),
        '%s/%s' % (project or '', queue), now) for project, queue in named}


def _one(collection, scope, now):
    count = collection.count_documents
    ready = count(queries.in_state(scope, READY).filter)
    waiting = count({'p_q': scope, 's': WAITING})
    claimed = count({'p_q': scope, 's': CLAIMED})
    due_waiting = count(queries.ended(scope, WAITING, now).filter)
    ended = count(queries.ended(scope, CLAIMED, now).filter)
    since = []
    first = collection.find_one(queries.in_state(scope, READY).filter,
                                sort=[('k', 1)], projection={'d': 1})
    if first is not None:
        since.append(first.get('d') or
                     first['_id'].generation_time.timestamp())
    for state in (WAITING, CLAIMED):
        query = queries.ended(scope, state, now)
        doc = collection.find_one(query.filter, sort=[('a', 1)],
                                  projection={'a': 1})
        if doc is not None:
            since.append(doc['a'])
    later = queries.ending_later(scope, WAITING, now)
    upcoming = collection.find_one(later.filter, sort=later.sort,
                                   projection={'a': 1})
    return families.QueueStats(
        delayed=waiting - due_waiting, ready=ready + due_waiting + ended,
        claimed=claimed - ended, available_since=min(since) if since else None,
        next_due=upcoming['a'] if upcoming else None)


def store(data):
    """The store's StoreStats: a count on the ``pa`` index per message
    collection, of the failed-push records, and one read of the
    counters."""
    pending = sum(db.messages.count_documents({'pa': {'$gte': 0}})
                  for db in data.message_databases)
    failed = data.message_databases[0][
        pushes.FAILED].estimated_document_count()
    return families.StoreStats(pending, failed, counters.read(data))
