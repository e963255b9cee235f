"""Queue metadata for ``redis.delay`` posts and claims, checked by
their scripts.

A post needs its queue's metadata (``_default_message_delay``,
``_dedup_key``, ``_history_ttl``) before it can build the script's
arguments, and a claim too (``_retry_backoff``, ``_max_claim_count``
and ``_dead_letter_queue``). When the queues live in the same redis
database as the messages (``redis.delay``'s management store on the
same server and ``dbid``), the driver keeps each queue's packed
metadata as last seen and plans the post or claim with it; ``post.lua``
and ``claim.lua`` compare it with the stored one in the same atomic
step and change nothing when they differ, so nothing is planned with
metadata other than the queue's at that moment. A post or claim then
costs one round trip (two the first time a process meets a queue, and
after each metadata change). Otherwise the metadata is read through the
queue controller before each.
"""

import msgpack
from zaqar.storage.redis import queues as upstream_queues

from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import projects

# Queues whose metadata a process keeps, at most (then it starts over).
SIZE = 4096
# Posts or claims planned with metadata the queue no longer had, at
# most, before the metadata is read through the queue controller.
STALE_PLANS = 3
# The reply code of post.lua and claim.lua to a plan made with other
# metadata (scripts/plan.lua): ``[STALE_PLAN, packed metadata]``.
STALE_PLAN = 0


def _place(client):
    pool = client.connection_pool
    kwargs = pool.connection_kwargs
    return (type(pool), getattr(pool, 'service_name', None),
            kwargs.get('host'), kwargs.get('port'), kwargs.get('path'),
            kwargs.get('db') or 0)


def same_database(queue_controller, client):
    """Whether ``queue_controller`` is upstream's redis one with project
    ids as ``redis.delay`` writes them (``projects.scoped``), on the
    database ``client`` talks to."""
    if not (isinstance(queue_controller, upstream_queues.QueueController)
            and projects.scopes_projects(queue_controller)):
        return False
    return _place(queue_controller._client) == _place(client)


class Cache:
    """Packed metadata by queue, as last seen (``b''``: none)."""

    def __init__(self, client):
        self._client = client
        self._known = {}

    def get(self, queue, project):
        """The packed metadata last seen, read if never seen."""
        packed = self._known.get(keys.queue_hash(queue, project))
        return self.read(queue, project) if packed is None else packed

    def read(self, queue, project):
        """The packed metadata stored now (one request); kept."""
        packed = self._client.hget(keys.queue_hash(queue, project), 'm')
        self.put(queue, project, packed)
        return packed or b''

    def put(self, queue, project, packed):
        if len(self._known) >= SIZE:
            self._known = {}
        self._known[keys.queue_hash(queue, project)] = packed or b''

    def planned(self, queue, project, run, refused=()):
        """``(metadata, reply)`` of ``run(metadata, packed)``, a script
        call planned with the queue's metadata as last seen (a dict, and
        packed). On a stale plan reply the metadata it holds is kept and
        ``run`` called again; when ``run`` raises one of ``refused``, the
        metadata is read again and ``run`` called again, unless it did
        not change (then the error is raised). None after
        ``STALE_PLANS`` calls planned with metadata the queue no longer
        had: the caller reads it through the queue controller."""
        packed = self.get(queue, project)
        for _ in range(STALE_PLANS):
            queue_meta = unpack(packed)
            try:
                reply = run(queue_meta, packed)
            except refused:
                # Refused by the metadata last seen: by the queue's?
                fresh = self.read(queue, project)
                if fresh == packed:
                    raise
                packed = fresh
                continue
            fresh = stale(reply)
            if fresh is None:
                return queue_meta, reply
            self.put(queue, project, fresh)
            packed = fresh
        return None


def stale(reply):
    """The queue's packed metadata when a script refused a plan made
    with other metadata (``b''``: none), else None."""
    if isinstance(reply, list) and reply and reply[0] == STALE_PLAN:
        return reply[1] or b''
    return None


def unpack(packed):
    """The metadata (a dict) of packed metadata (``b''``: none)."""
    return msgpack.unpackb(packed) if packed else {}
