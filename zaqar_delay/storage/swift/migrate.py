"""Switch a live Swift store between ``swift`` and ``swift.delay``.

``swift`` -> ``swift.delay``: every message object of every queue gets
the index entries of its state, read from its content (``delay_expires``,
``claim_id``) and its claim object: a message held by a live claim gets
that claim's lock, taken as a claim takes one (``index.Index.lock``:
create-only, under the lease of the message's shard), so that
on a live store the lock of a newer claim, made since the message was
read, is left to it. Listings are read a page at a time (no
recursion).
Run it after every zaqar-server uses ``swift.delay``; it is idempotent.
Messages posted by ``swift`` keep their ids, which do not sort by posting
time, so among them claims come in id order.

``swift.delay`` -> ``swift``: the index containers are deleted; ``swift``
reads the message and claim objects, which were kept in its format.
"""

import collections

from oslo_serialization import jsonutils
from oslo_utils import timeutils
from zaqar.conf import drivers_message_store_swift as swift_opts

from zaqar_delay import delay
from zaqar_delay.storage import base
from zaqar_delay.storage import common
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import upstream

PREFIX = 'zaqar_message:'


def queues(client):
    """Yield (queue, project) for every message container."""
    marker = ''
    while True:
        _, containers = client.get_account(prefix=PREFIX, marker=marker,
                                           limit=1000)
        if not containers:
            return
        for cont in containers:
            queue, _, project = cont['name'][len(PREFIX):].partition(':')
            yield queue, (None if project == 'None' else project)
        marker = containers[-1]['name']


def _live_claim(client, queue, project, claim_id, now, cache):
    """The expiry of a live claim, or None."""
    if claim_id not in cache:
        expires = 0
        with responses.tolerating(responses.NOT_FOUND):
            expires = int(client.head_object(
                upstream.claim_container(queue, project),
                claim_id)['x-delete-at'])
        cache[claim_id] = expires if expires > now else None
    return cache[claim_id]


def reindex(client, queue, project, batch=1000, dry_run=False):
    """Index one queue; yield the Counts of each page as it is done."""
    index = idx.Index(client, queue, project)
    container = upstream.message_container(queue, project)
    claims = {}
    marker = ''
    while True:
        _, objects = client.get_container(container, marker=marker,
                                          limit=batch)
        if not objects:
            return
        marker = objects[-1]['name']
        now = timeutils.utcnow_ts()
        # Due times are judged to the millisecond, as a claim judges them.
        now_ms = delay.floor_ms(timeutils.utcnow_ts(microsecond=True))
        counts = collections.Counter()
        for obj in objects:
            mid = obj['name']
            headers = None
            with responses.tolerating(responses.NOT_FOUND):
                headers, body = client.get_object(container, mid)
            if headers is None:
                counts['gone'] += 1
                continue
            msg = jsonutils.loads(body)
            expires = int(headers.get('x-delete-at') or now + msg['ttl'])
            claim_id = msg.get('claim_id')
            claim = claim_id and _live_claim(client, queue, project,
                                             claim_id, now, claims)
            due = msg.get('delay_expires', 0)
            if claim:
                counts['claimed'] += 1
                if not dry_run and index.lock(mid, claim_id, claim,
                                              timeutils.utcnow_ts()):
                    index.put(idx.CLAIM_EXPIRY, idx.held_until(claim, mid),
                              expires, idx.holding(expires, 0))
            elif due > now_ms:
                counts['waiting'] += 1
                if not dry_run:
                    index.put(idx.WAITING, mid, expires)
                    index.put(idx.DUE, idx.timed(due, expires, mid),
                              expires)
            else:
                counts['ready'] += 1
                if not dry_run:
                    index.put(idx.READY, mid, expires)
        yield common.Counts(*(counts[name] for name in common.Counts._fields))


def drop_index(client, queue, project, dry_run=False):
    """Delete the index containers of one queue; return their names."""
    index = idx.Index(client, queue, project)
    if not dry_run:
        index.drop()
    return index.containers()


class Migrate(base.Migrate):
    """The queues of a Swift store (its message containers)."""

    upstream = 'swift'

    @classmethod
    def connect(cls, config_files, uri=None, database=None,
                partitions=None):
        settings = cls.settings(config_files, swift_opts)
        if uri:
            settings = common.UriOptions(settings, uri)
        return cls(upstream.ClientWrapper(settings))

    def places(self):
        return [('%s/%s' % (project or '', queue), (queue, project))
                for queue, project in queues(self.store)]

    def reindex(self, place, batch=1000, dry_run=False):
        return reindex(self.store, *place, batch=batch, dry_run=dry_run)

    def drop_index(self, place, dry_run=False):
        return 'containers %s' % ', '.join(
            drop_index(self.store, *place, dry_run=dry_run))
