"""The index containers of a ``swift.delay`` queue and their entries.

Every entry is a small object (zero bytes, but for ``lock``, ``dedup``
and ``claim_expiry``) whose name carries what it indexes and that
expires (``X-Delete-At``) with its message. Names sort the way each
index is read; Swift lists them in name order, bounded by ``marker``,
``end_marker`` and ``limit``.
"""

import collections
import time
import zlib

from oslo_serialization import jsonutils

from zaqar_delay import delay
from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import locks
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import responses

READY = 'ready'                # <id>: due and not claimed
WAITING = 'waiting'            # <id>: not due yet
DUE = 'due'                    # <due ms>.<expires>.<id>: not due yet
CLAIM_EXPIRY = 'claim_expiry'  # <claim expires>-<claim id>: held by it
LOCK = 'lock'                  # <id>, content the claim id: held
DEDUP = 'dedup'                # <digest>, content the message id
LEASE = 'lease'                # <shard>: a lease on its messages' locks
KINDS = (READY, WAITING, DUE, CLAIM_EXPIRY, LOCK, DEDUP, LEASE)
# The shards of the ids of other layouts (upstream's), by a hash.
SHARDS = 16
# Operations without a claim hold a message's lock under these
# prefixes: a delete (the message controller's ``delete``) and a
# reschedule, then a uuid; a move, then the id of the message's copy
# (``steering``).
DELETING = 'delete-'
RESCHEDULING = 'reschedule-'
MOVING = 'move-'
HOLDS = (DELETING, RESCHEDULING, MOVING)
# Kinds of the earlier layout, which a queue's drop deletes too:
# ``claimed`` had an entry per claimed message (now its lock counts).
LEGACY_KINDS = ('claimed',)

# A DUE entry's name read back (``untimed``): the due time (unix
# seconds), the message's expiry and its id.
Timed = collections.namedtuple('Timed', 'due expires message_id')
# What a claim's CLAIM_EXPIRY entry keeps of one message it holds: the
# message's expiry and its retry backoff in seconds.
Holding = collections.namedtuple('Holding', 'expires wait')
# A claim's CLAIM_EXPIRY entry's name read back (``claim_ended``).
ClaimEnd = collections.namedtuple('ClaimEnd', 'ended claim_id')


def shard(message_id):
    """The shard of a message, whose lease its lock is taken under: the
    second (2**20 microseconds) it was posted in, from a ``swift.delay``
    id (``idtime``), so that a claim takes messages posted together under
    one lease, oldest first; else one of ``SHARDS`` by a hash."""
    second = idtime.second(message_id)
    if second is not None:
        return 't' + second
    return 'h%02d' % (zlib.crc32(message_id.encode()) % SHARDS)


def container(kind, queue, project):
    return 'zaqar_delay_%s:%s:%s' % (kind, queue, project)


def timed(due, expires, message_id):
    """The name of a DUE entry (or a pending push's): ``due`` (unix
    seconds, to the ms) as 13 digits of milliseconds, then ``expires``
    (whole seconds) and the id. How these names sort beside the
    whole-second ones of earlier versions: ``doc/source/swift.rst``."""
    return '%013d.%010d.%s' % (round(due * 1000), expires, message_id)


def untimed(name):
    """The ``Timed`` of a DUE entry: the due time in
    seconds, to the ms (13 digits) or whole (10 digits: an entry of an
    earlier version, or of CLAIM_EXPIRY's earlier layout)."""
    when, expires, message_id = name.split('.', 2)
    due = int(when) / 1000 if len(when) > 10 else int(when)
    return Timed(due, int(expires), message_id)


def claim_ends(claim_expires, claim_id):
    """The name of a claim's CLAIM_EXPIRY entry. Its content is
    ``holdings()``'s."""
    return '%010d-%s' % (claim_expires, claim_id)


def holdings(held):
    """The content of a claim's CLAIM_EXPIRY entry: ``held`` is
    {message id: ``Holding``}."""
    return jsonutils.dump_as_bytes(
        {mid: [int(expires), int(wait or 0)]
         for mid, (expires, wait) in held.items()})


def held_of(content):
    """``holdings()`` read back: {message id: ``Holding``}."""
    return {mid: Holding(*pair)
            for mid, pair in jsonutils.loads(content).items()}


def claim_ended(name):
    """The ``ClaimEnd`` of a claim's CLAIM_EXPIRY entry; None for an
    entry of one message (``unheld``, ``legacy_held``)."""
    when, sep, claim_id = name.partition('-')
    return ClaimEnd(int(when), claim_id) if sep and when.isdigit() else None


def held_until(claim_expires, message_id):
    """The name of a CLAIM_EXPIRY entry of one message, which claims
    wrote before they wrote one entry a claim (``claim_ends``), and
    ``migrate`` still writes: what a message's lock (which expires with
    its claim) names. Its content is ``holding()``'s."""
    return '%010d.%s' % (claim_expires, message_id)


def holding(expires, wait):
    """The content of a CLAIM_EXPIRY entry: the message's expiry and its
    retry backoff in seconds."""
    return ('%d %d' % (expires, wait or 0)).encode()


def unheld(name):
    """(claim expiry, message id) of a CLAIM_EXPIRY entry; None for one
    of the earlier layout (``legacy_held``)."""
    when, _, message_id = name.partition('.')
    return None if '.' in message_id else (int(when), message_id)


def legacy_held(name):
    """(claim expiry, expires, message id, wait) of a CLAIM_EXPIRY entry
    of the earlier layout, ``<claim expires>.<expires>.<id>[.<wait>]``
    (ids have no dot)."""
    when, expires, rest = untimed(name)
    message_id, _, wait = rest.partition('.')
    return when, expires, message_id, int(wait or 0)


def legacy_timed(when, expires, message_id):
    """The name of a DUE entry that earlier versions wrote, with a whole
    second ``when`` (and of a CLAIM_EXPIRY entry of the earlier
    layout)."""
    return '%010d.%010d.%s' % (when, expires, message_id)


def legacy_held_until(claim_expires, expires, message_id, wait=0):
    """The name of a CLAIM_EXPIRY entry of the earlier layout."""
    name = legacy_timed(claim_expires, expires, message_id)
    return '%s.%d' % (name, wait) if wait else name


def due_names(due, expires, rest):
    """The names a DUE entry (or a pending push's) of a message whose
    content's ``delay_expires`` is ``due`` may have: ``timed``'s, and
    ``legacy_timed``'s for a whole-second ``due`` (an ``int``, as
    earlier versions wrote it)."""
    names = [timed(due, expires, rest)]
    if isinstance(due, int):
        names.append(legacy_timed(due, expires, rest))
    return names


def until(now):
    """``end_marker`` that lists the CLAIM_EXPIRY entries (whole
    seconds) that ended by ``now``."""
    return '%010d' % (int(now) + 1)


def due_until(now):
    """The name between the DUE entries (and pending pushes) due by
    ``now`` and those due after: as ``end_marker``, a listing gives the
    first (whole-second names of earlier versions too); as ``marker``,
    the others. ``now`` is judged to the ms (``delay.floor_ms``)."""
    return '%013d.~' % round(delay.floor_ms(now) * 1000)


class Index:
    """The index containers of one queue."""

    def __init__(self, client, queue, project):
        self._client = client
        self.name = (project, queue)
        self.queue, self.project = queue, project
        self._names = {kind: container(kind, queue, project)
                       for kind in KINDS}

    def containers(self):
        return list(self._names.values())

    def put(self, kind, name, expires, content=b'', headers=None):
        """Write an entry; False when a create-only write found one.

        An index entry for a message that has already expired is not
        written (Swift refuses an expiry in its past): the message is gone.
        """
        if kind != LOCK and int(expires) <= int(time.time()):
            return True

        with responses.tolerating(responses.PRECONDITION_FAILED):
            objects.put(self._client, self._names[kind], name, content,
                        expires, headers=headers,
                        content_length=len(content))
            return True
        return False

    def read(self, kind, name):
        """The content of an entry; None if there is none."""
        with responses.tolerating(responses.NOT_FOUND):
            return self._client.get_object(self._names[kind], name)[1]
        return None

    def lock(self, message_id, claim_id, expires, now):
        """Take a message for a claim; False when a live claim holds it,
        or another taker holds its shard's lease."""
        name = shard(message_id)
        door = self.lease(name, claim_id, now)
        if door is None:
            return False
        try:
            return self.create_lock(message_id, claim_id, expires, now,
                                    door)
        finally:
            self.unlease(name, door)

    def lease(self, name, holder, now):
        """A lease on a shard (``locks.lease``): its end, or None."""
        return locks.lease(self._client, self._names[LEASE], name, holder,
                           now)

    def unlease(self, name, door):
        locks.unlease(self._client, self._names[LEASE], name, door)

    def create_lock(self, message_id, claim_id, expires, now, door):
        """A message's lock, written under its shard's lease, which ends
        at ``door`` (``locks.create_held``); False, and nothing sent,
        once the lease may no longer be used (``locks.leased``)."""
        if not locks.leased(door):
            return False
        return locks.create_held(self._client, self._names[LOCK],
                                 message_id, claim_id, expires, now)

    def lock_of(self, message_id):
        """The Lock of a message (its ``holder`` is the claim id), live or
        not; None if it has none."""
        return locks.read(self._client, self._names[LOCK], message_id)

    def unlock(self, message_id, held):
        """Delete a message's lock if it is still ``held`` (the Lock read
        before): a lock that ended meanwhile and that another claim took
        is left to it."""
        locks.release(self._client, self._names[LOCK], message_id,
                      held.expires)

    @staticmethod
    def on_hold(held):
        """Whether a live Lock is the hold of an operation without a
        claim (a delete, a reschedule, a move), not a claim's."""
        return held.holder.startswith(HOLDS)

    def holder(self, message_id, now):
        """The live Lock of a message, or None."""
        held = self.lock_of(message_id)
        return held if held is not None and held.expires > now else None

    def expire(self, kind, name, expires):
        """Move an entry's expiry (POST keeps its content)."""
        objects.expire(self._client, self._names[kind], name, expires)

    def delete(self, kind, name, headers=None):
        """Delete an entry; gone already, or a failed condition, is fine."""
        with responses.tolerating(responses.NOT_FOUND,
                                  responses.PRECONDITION_FAILED):
            self._client.delete_object(self._names[kind], name,
                                       headers=headers)

    def names(self, kind, marker=None, end_marker=None, limit=100):
        return [obj['name'] for obj in self._listing(
            self._names[kind], marker, end_marker, limit)]

    def _listing(self, container, marker=None, end_marker=None, limit=100):
        with responses.tolerating(responses.NOT_FOUND):
            return self._client.get_container(
                container, marker=marker or '', end_marker=end_marker,
                limit=limit)[1]
        return []

    def count(self, kind):
        with responses.tolerating(responses.NOT_FOUND):
            return int(self._client.head_container(
                self._names[kind])['x-container-object-count'])
        return 0

    def drop(self):
        """Delete every index container and its entries."""
        others = [container(kind, self.queue, self.project)
                  for kind in LEGACY_KINDS]
        others += [locks.bids(self._names[kind])
                   for kind in (LOCK, DEDUP, LEASE)]
        for name in list(self._names.values()) + others:
            self._empty(name)
            with responses.tolerating(responses.NOT_FOUND,
                                      responses.CONFLICT):
                self._client.delete_container(name)

    def _empty(self, container):
        marker = ''
        while True:
            objects = self._listing(container, marker, limit=1000)
            if not objects:
                return
            for obj in objects:
                with responses.tolerating(responses.NOT_FOUND):
                    self._client.delete_object(container, obj['name'])
            marker = objects[-1]['name']
