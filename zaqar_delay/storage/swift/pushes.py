"""The pending pushes of a ``swift.delay`` store.

``zaqar_delay_pushes`` holds an entry per pending push, in due order;
a dispatcher takes one by winning its lease (``zaqar_delay_push_leases``)
and moving the entry to the lease's end, so a push whose dispatcher
died is due again then; a push may be made twice, never lost. The
containers and the order of requests: doc/source/swift.rst, "Pending
pushes".
"""

import uuid

from oslo_serialization import jsonutils

from concurrent import futures

from zaqar_delay import pending
from zaqar_delay.storage import base
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import responses

PENDING = 'zaqar_delay_pushes'
LEASES = 'zaqar_delay_push_leases'
DELIVERED = 'zaqar_delay_push_delivered'
FAILED = 'zaqar_delay_push_failed'
WORKERS = 8     # pushes a take handles at once (Swift requests in flight)


def record(client, due, expires, message_id, queue, project):
    """Write the pending push of a message due at ``due`` (to the ms)."""
    _put(client, idx.timed(due, expires,
                           pending.name(message_id, queue, project)), expires)


def _put(client, entry, expires):
    objects.put(client, PENDING, entry, b'', expires, content_length=0)


def reschedule(client, message_id, queue, project, old_due, expires, due):
    """Make the pending push of a message due at ``old_due``, if one is
    there that no dispatcher took, due at ``due``: its new entry first,
    then the old one deleted; if a dispatcher took the old one meanwhile
    (the delete finds it gone), the new one is deleted too. A HEAD per
    name the old entry may have until one is found, then two requests
    (three when a dispatcher took it)."""
    new = idx.timed(due, expires, pending.name(message_id, queue, project))
    for old in idx.due_names(old_due, expires,
                             pending.name(message_id, queue, project)):
        if old == new:
            return
        with responses.tolerating(responses.NOT_FOUND):
            client.head_object(PENDING, old)
            _put(client, new, expires)
            if not _delete(client, old):
                _delete(client, new)
            return


def drop(client, message_id, queue, project, due, expires):
    """Delete the pending push of a message due at ``due``, if it has
    one (gone is fine): one DELETE a name it may have, at once."""
    parallel.each(lambda name: _delete(client, name), idx.due_names(
        due, expires, pending.name(message_id, queue, project)))


def _delete(client, entry):
    """Delete an entry; False if it was gone."""
    with responses.tolerating(responses.NOT_FOUND):
        client.delete_object(PENDING, entry)
        return True
    return False


class Pushes(base.PushStore):
    """What a dispatcher needs of the store: take, delivered, done,
    next due."""

    def __init__(self, driver):
        super().__init__(driver)
        self._client = driver.connection
        self._recorded = set()      # leases this one wrote delivered for

    def take(self, now, limit, lease):
        """Up to ``limit`` pushes due by ``now`` (unix seconds, judged to
        the ms), held for ``lease`` seconds, with the subscribers
        recorded as delivered to: one listing, then five requests per
        push taken, ``WORKERS`` pushes at a time."""
        taker = uuid.uuid4().hex
        entries = self._names(idx.due_until(now), limit)
        with futures.ThreadPoolExecutor(min(WORKERS, len(entries) or 1)) \
                as pool:
            found = pool.map(
                lambda entry: self._take(entry, taker, now, now + lease),
                entries)
        return [taken for taken in found if taken is not None]

    def _take(self, entry, taker, now, until):
        due, expires, held = idx.untimed(entry)
        if not locks.take(self._client, LEASES, held, taker, until, now):
            return None     # another dispatcher holds it
        moved = idx.timed(until, expires, held)
        _put(self._client, moved, expires)
        if not self._delete(entry):
            # Taken and moved (or done) since it was listed.
            self._delete(moved)
            locks.release(self._client, LEASES, held, until)
            return None
        message_id, queue, project = pending.parse(held)
        return pending.Push(project, queue, message_id, (moved, held, until),
                            self._delivered(held), due)

    def _delivered(self, held):
        """The subscribers recorded for a push (one request)."""
        with responses.tolerating(responses.NOT_FOUND):
            return pending.split_subscribers(
                self._client.get_object(DELIVERED, held)[1])
        return frozenset()

    def delivered(self, records):
        """Record, for each ``(push, subscribers)``, the subscribers
        that answered 2xx for a push not done yet: one request each."""
        for push, subscribers in records:
            moved, held, _ = push.handle
            expires = idx.untimed(moved).expires
            objects.put(self._client, DELIVERED, held,
                        pending.join_subscribers(subscribers), expires)
            self._recorded.add(held)

    def done(self, pushes, attempts=None):
        """Forget pushes that were made: their lease only if it is still
        the one taken (a lease that ended may be another's now).
        ``attempts`` are not recorded: swift.delay's history has no
        ``pushed`` events (doc/source/history.rst)."""
        for made in pushes:
            moved, held, until = made.handle
            self._delete(moved)
            if made.delivered or held in self._recorded:
                self._recorded.discard(held)
                with responses.tolerating(responses.NOT_FOUND):
                    self._client.delete_object(DELIVERED, held)
            locks.release(self._client, LEASES, held, until)

    def next_due(self, before=None):
        """The earliest due time (or lease end) pending, or None
        (``base.PushStore.next_due``): a listing of one name."""
        for entry in self._names(None, 1):
            return pending.earlier(idx.untimed(entry).due, before)
        return None

    def pending(self, limit):
        """Up to ``limit`` pending pushes, earliest due first, as
        ``pending.listed`` records: one listing, one request each. A
        take moves a push's entry to its lease's end (written there,
        then deleted where it was); Swift updates a listing after the
        object, so a listing can show both: the push is listed once, at
        the later one."""
        latest = {}
        for entry in self._names(None, limit):
            at, _, held = idx.untimed(entry)
            latest[held] = (at, entry)      # listed in due order
        found = []
        for held, (at, entry) in sorted(latest.items(),
                                        key=lambda item: item[1]):
            message_id, queue, project = pending.parse(held)
            found.append(pending.listed(pending.Push(
                project, queue, message_id, entry, self._delivered(held)),
                at))
        return found

    def fail(self, record, retention):
        """Keep a failed push's record for ``retention`` seconds."""
        objects.put(self._client, FAILED, _failed_name(record),
                    jsonutils.dumps(record), record['at'] + retention,
                    content_type='application/json')

    def failed(self, limit):
        """Up to ``limit`` failed-push records, oldest first."""
        found = []
        with responses.tolerating(responses.NOT_FOUND):
            for obj in self._client.get_container(FAILED, limit=limit)[1]:
                with responses.tolerating(responses.NOT_FOUND):
                    found.append(jsonutils.loads(self._client.get_object(
                        FAILED, obj['name'])[1]))
        return found

    def forget_failed(self, records):
        """Delete failed-push records (as ``failed`` gave them)."""
        for record in records:
            with responses.tolerating(responses.NOT_FOUND):
                self._client.delete_object(FAILED, _failed_name(record))

    def count(self, container=PENDING):
        """Pushes pending (or records in another container): one HEAD."""
        with responses.tolerating(responses.NOT_FOUND):
            return int(self._client.head_container(container)[
                'x-container-object-count'])
        return 0

    def _names(self, end_marker, limit):
        with responses.tolerating(responses.NOT_FOUND):
            return [obj['name'] for obj in self._client.get_container(
                PENDING, end_marker=end_marker, limit=limit)[1]]
        return []

    def _delete(self, entry):
        return _delete(self._client, entry)


def _failed_name(record):
    return '%010d.%s' % (int(record['at']), record['key'])
