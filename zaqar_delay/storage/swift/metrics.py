"""Read a ``swift.delay`` store for metrics: container counts and
one-entry listings.

Per queue (``index.Index``): three container HEADs (``ready``,
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

from zaqar_delay.storage import base
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import migrate
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import pushes
from zaqar_delay.storage.swift import stored

# Most ``due`` entries up to now counted in a scrape: above it, the
# count of due messages not yet promoted is this number.
LISTED = 1000


def _one(data, queue, project, now):
    index = idx.Index(data.connection, queue, project)
    ready = index.count(idx.READY)
    waiting = index.count(idx.WAITING)
    locked = index.count(idx.LOCK)
    edge = idx.due_until(now)
    due = index.names(idx.DUE, end_marker=edge, limit=LISTED)
    later = index.names(idx.DUE, marker=edge, limit=1)
    ended = index.names(idx.CLAIM_EXPIRY, end_marker=idx.until(now),
                        limit=1)
    first = index.names(idx.READY, limit=1)
    since = []
    if first:
        found = stored.found(data.connection, queue, first[0], project)
        if found is not None:
            headers, body = found
            since.append(jsonutils.loads(body).get('delay_expires') or
                         float(headers['x-timestamp']))
    if due:
        since.append(idx.untimed(due[0]).due)
    if ended:
        since.append(int(ended[0].split('-', 1)[0]))
    return base.QueueStats(
        delayed=max(waiting - len(due), 0), ready=ready + len(due),
        claimed=locked, available_since=min(since) if since else None,
        next_due=idx.untimed(later[0]).due if later else None)


class Metrics(base.MetricsReader):
    """The metrics reader of a ``swift.delay`` store."""

    def queues(self, control, cache, pool=''):
        """Every queue with a message container."""
        for queue, project in migrate.queues(self.driver.connection):
            yield project, queue

    def read(self, named, now):
        """Due times are judged to the ms; ``parallel.WORKERS`` queues
        are read at once."""
        named = list(named)
        return dict(zip(named, parallel.each(
            lambda name: _one(self.driver, name[1], name[0], now), named)))

    def totals(self):
        """Two container HEADs."""
        store = self.driver.push_store
        return base.StoreStats(store.count(), store.count(pushes.FAILED))
