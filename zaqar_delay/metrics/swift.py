"""Read a ``swift.delay`` store for metrics: container counts and
one-entry listings.

Per queue (``storage.swift.index``): three container HEADs (``ready``,
``waiting``, ``lock``: their object counts), a listing of the ``due``
entries up to now (at most ``LISTED`` names), a one-name listing of
``due`` after now, of ``claim_expiry`` up to now and of ``ready``, and a
GET of that first ready message: eight requests, whatever the backlog,
for eight queues at once.
Store-wide: HEADs of the pending and failed-push containers.

A claim's end is seen by the next claim or list of its queue: until
then, the messages of a claim that ended count as claimed, and the
claim's end as when they became available.
"""

from oslo_serialization import jsonutils

from zaqar_delay.metrics import families
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import migrate
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import pushes
from zaqar_delay.storage.swift import responses

# Most ``due`` entries up to now counted in a scrape: above it, the
# count of due messages not yet promoted is this number.
LISTED = 1000


def queues(data, control, cache, pool=''):
    """(project, queue) of every message container."""
    for queue, project in migrate.queues(data.connection):
        yield project, queue


def read(data, named, now):
    """{(project, queue): QueueStats} of ``named`` queues at ``now``
    (unix seconds; due times are judged to the ms);
    ``parallel.WORKERS`` queues are read at once."""
    named = list(named)
    return dict(zip(named, parallel.each(
        lambda name: _one(data, name[1], name[0], now), named)))


def _count(client, container):
    with responses.tolerating(responses.NOT_FOUND):
        return int(client.head_container(container)[
            'x-container-object-count'])
    return 0


def _names(client, container, **query):
    with responses.tolerating(responses.NOT_FOUND):
        return [obj['name'] for obj in client.get_container(
            container, **query)[1]]
    return []


def _one(data, queue, project, now):
    client = data.connection

    def name(kind):
        return idx.container(kind, queue, project)

    ready = _count(client, name(idx.READY))
    waiting = _count(client, name(idx.WAITING))
    locked = _count(client, name(idx.LOCK))
    edge = idx.due_until(now)
    due = _names(client, name(idx.DUE), end_marker=edge, limit=LISTED)
    later = _names(client, name(idx.DUE), marker=edge, limit=1)
    ended = _names(client, name(idx.CLAIM_EXPIRY), end_marker=idx.until(now),
                   limit=1)
    first = _names(client, name(idx.READY), limit=1)
    since = []
    if first:
        found = data.message_controller.found(queue, first[0], project)
        if found is not None:
            headers, body = found
            since.append(jsonutils.loads(body).get('delay_expires') or
                         float(headers['x-timestamp']))
    if due:
        since.append(idx.untimed(due[0])[0])
    if ended:
        since.append(int(ended[0].split('-', 1)[0]))
    return families.QueueStats(
        delayed=max(waiting - len(due), 0), ready=ready + len(due),
        claimed=locked, available_since=min(since) if since else None,
        next_due=idx.untimed(later[0])[0] if later else None)


def store(data):
    """The store's StoreStats: two container HEADs."""
    client = data.connection
    return families.StoreStats(_count(client, pushes.PENDING),
                               _count(client, pushes.FAILED))
