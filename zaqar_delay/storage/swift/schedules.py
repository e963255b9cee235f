"""The schedule index of a ``swift.delay`` store (``zaqar_delay.schedules``).

A take is one listing of the due looks and the splitter for each
queue's lease; only the lease's holder writes a queue's state, and a
pass whose lease is no longer its own writes nothing. A death between
two requests costs at most one extra look. The containers and the order
of requests: doc/source/swift.rst, "Schedule index".
"""

import threading
import uuid

from oslo_serialization import jsonutils
from oslo_utils import timeutils

from concurrent import futures

from zaqar_delay import pending
from zaqar_delay.storage import base
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import responses

LOOKS = 'zaqar_delay_schedules'
STATE = 'zaqar_delay_schedule_state'
DEFINED = 'zaqar_delay_schedule_defined'
DEFINED_KEEP = 86400    # seconds a ``defined`` time is kept
LEASES = 'zaqar_delay_schedule_leases'
WORKERS = 8     # queues a take handles at once (Swift requests in flight)
KEEP = 10 * 365 * 86400     # seconds a state object and an entry live


def member(queue, project):
    return pending.SEP.join((queue, project or ''))


def parse(found):
    queue, project = found.split(pending.SEP, 1)
    return queue, project or None


def entry(look, name):
    return '%010d.%s' % (look, name)


def unentry(name):
    """(look, member) of a look entry."""
    look, found = name.split('.', 1)
    return int(look), found


class Schedules(base.ScheduleStore):
    """What the schedule pass and the queue stages need of the store."""

    def __init__(self, driver):
        super().__init__(driver)
        self._client = driver.connection
        self._held = {}     # (member, lease end) -> taker: this process's
        self._lock = threading.Lock()

    def touch(self, queue, project, at, defined):
        """Look at the queue's schedules at ``at``, which were set at
        ``defined``: when they were set, one entry, and the state object
        if the queue has none (create-only)."""
        name = member(queue, project)
        content = str(int(defined)).encode()
        objects.put(self._client, DEFINED, name, content,
                    timeutils.utcnow_ts() + DEFINED_KEEP,
                    content_length=len(content))
        self._put_entry(at, name)
        locks.create(self._client, STATE, name,
                     jsonutils.dump_as_bytes({'look': at, 'a': {}}),
                     self._keep())

    def defined(self, queue, project):
        """When the queue's schedules were last set (``touch``, in the
        last day), or None: one request."""
        with responses.tolerating(responses.NOT_FOUND):
            return int(self._client.get_object(
                DEFINED, member(queue, project))[1])
        return None

    def take(self, now, limit, lease):
        """Up to ``limit`` due queues, held for ``lease`` seconds: one
        listing, then nine requests per queue taken (the lease, the
        entry's HEAD, its move), ``WORKERS`` queues at a time. A queue
        listed more than once (each ``touch`` writes an entry) is taken
        once, and all its listed entries move."""
        taker = uuid.uuid4().hex
        with self._lock:
            # Leases that ended with no advance (a failed pass).
            for key in [key for key in self._held if key[1] < now]:
                del self._held[key]
        listed = {}     # member -> its entries, in listing order
        for name in self._names(idx.until(now), limit):
            listed.setdefault(unentry(name)[1], []).append(name)
        with futures.ThreadPoolExecutor(min(WORKERS, len(listed) or 1)) \
                as pool:
            taken = pool.map(
                lambda item: self._take(item[0], item[1], taker, now,
                                        now + lease),
                listed.items())
            return [one for one in taken if one is not None]

    def _take(self, found, names, taker, now, until):
        """Take the queue ``found`` (a member) listed at ``names``."""
        if not locks.take(self._client, LEASES, found, taker, until, now):
            return None     # another pass holds it
        if not any(self._there(name) for name in names):
            # A listing can lag behind the writes (Swift updates it
            # after the object): another pass moved these entries since.
            locks.release(self._client, LEASES, found, until)
            return None
        self._put_entry(until, found)
        for name in names:
            self._delete_entry(name)
        with self._lock:
            self._held[found, until] = taker
        return parse(found)

    def _there(self, name):
        with responses.tolerating(responses.NOT_FOUND):
            self._client.head_object(LOOKS, name)
            return True
        return False

    def afters(self, queue, project):
        return self._state(member(queue, project))['a']

    def afters_of(self, taken):
        """``afters`` of each (queue, project): a request each,
        ``WORKERS`` at a time."""
        with futures.ThreadPoolExecutor(min(WORKERS, len(taken) or 1)) \
                as pool:
            return list(pool.map(lambda one: self.afters(*one), taken))

    def advance_all(self, records):
        """``advance`` of each (queue, project, afters, next look, held),
        ``WORKERS`` at a time."""
        with futures.ThreadPoolExecutor(min(WORKERS, len(records) or 1)) \
                as pool:
            return list(pool.map(lambda one: self.advance(*one), records))

    def advance(self, queue, project, afters, next_look, held):
        """Move each schedule's after forward to ``afters`` (never back;
        others are forgotten) and look again at ``next_look`` (None:
        forget the queue), if this process still holds the queue until
        ``held``; True then, else False and nothing written. Five
        requests (a read of the lease, the state, the look's entry, two
        deletes), and the lease's release."""
        name = member(queue, project)
        with self._lock:
            taker = self._held.pop((name, held), None)
        if taker is None:
            return False
        lock = locks.read(self._client, LEASES, name)
        if (lock is None or lock.holder != taker or
                timeutils.utcnow_ts() >= held):
            return False
        state = self._state(name)
        merged = {schedule: max(after, state['a'].get(schedule, after))
                  for schedule, after in afters.items()}
        if next_look is None:
            with responses.tolerating(responses.NOT_FOUND):
                self._client.delete_object(STATE, name)
        else:
            self._put_entry(next_look, name)
            objects.put(self._client, STATE, name, jsonutils.dump_as_bytes(
                {'look': next_look, 'a': merged}), self._keep(),
                content_type='application/json')
        if next_look != held:
            self._delete_entry(entry(held, name))
        locks.release(self._client, LEASES, name, held)
        return True

    def next_due(self):
        """The earliest look (or lease end) in the index, or None."""
        for name in self._names(None, 1):
            return unentry(name)[0]
        return None

    def next_tick(self, queue, project):
        """The next look the last pass recorded (or the first look asked
        for), or None if the queue has no schedules: one request."""
        return self._state(member(queue, project)).get('look')

    def listed(self, limit):
        """Up to ``limit`` (queue, project, next look), earliest first
        (a queue looked at twice is listed once, at its earliest)."""
        found, seen = [], set()
        for name in self._names(None, limit):
            look, name = unentry(name)
            if name not in seen:
                seen.add(name)
                found.append(parse(name) + (look,))
        return found

    def _state(self, name):
        with responses.tolerating(responses.NOT_FOUND):
            state = jsonutils.loads(
                self._client.get_object(STATE, name)[1])
            state['a'] = {schedule: int(after) for schedule, after in
                          state.get('a', {}).items()}
            return state
        return {'a': {}}

    def _keep(self):
        return timeutils.utcnow_ts() + KEEP

    def _put_entry(self, look, name):
        objects.put(self._client, LOOKS, entry(look, name), b'',
                    self._keep(), content_length=0)

    def _delete_entry(self, name):
        with responses.tolerating(responses.NOT_FOUND):
            self._client.delete_object(LOOKS, name)

    def _names(self, end_marker, limit):
        with responses.tolerating(responses.NOT_FOUND):
            return [obj['name'] for obj in self._client.get_container(
                LOOKS, end_marker=end_marker, limit=limit)[1]]
        return []
