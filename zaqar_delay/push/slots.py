"""Bounded push attempts: a fixed pool of threads, a few per subscriber.

``Slots`` runs the attempts of ``Delivery`` objects (one message to one
subscriber) on at most ``workers`` threads, at most ``per_subscriber``
of them for one subscriber URL at a time; a delivery waiting for a
retry holds no thread (one timer thread keeps the retries). A
subscriber that hangs or fails holds only its own slots, and while its
last attempt failed it has ``FAILING_SLOTS`` of them (its attempts are
all made, one after the other, and cost the others less); its next 2xx
gives it back ``per_subscriber``. The bookkeeping of a subscriber with
nothing in flight is dropped.
"""

import collections
import heapq
import itertools
import threading
import time

from concurrent import futures
from oslo_log import log as logging

from zaqar_delay.push import policy

LOG = logging.getLogger(__name__)

FAILING_SLOTS = 1   # attempts in flight to a subscriber that is failing


class Delivery:
    """One message to one subscriber: ``attempt()`` makes one try and
    returns the seconds to wait before the next, or None when it ended.

    ``send()`` makes the push and returns ``(verdict, status)``
    (``policy.verdict``); ``waits`` are the retry policy's waits;
    ``deadline`` (``time.monotonic``) is the last moment an attempt may
    start; ``ended(delivery)`` is called once, with ``delivered``,
    ``status`` (last answer; None for no answer) and ``attempts`` set.
    """

    def __init__(self, subscriber, send, waits, deadline, ended):
        self.subscriber = subscriber
        self.send = send
        self.waits = iter(waits)
        self.deadline = deadline
        self.ended = ended
        self.attempts = 0
        self.status = None
        self.delivered = False
        self.reason = None

    def attempt(self, now):
        if now > self.deadline:
            return self._end('no attempt left within the lease')
        self.attempts += 1
        try:
            verdict, self.status = self.send()
        except Exception:
            LOG.exception('push to %s failed', self.subscriber)
            verdict = policy.RETRY
        if verdict == policy.DONE:
            self.delivered = True
            return self._end(None)
        if verdict == policy.FAILED:
            return self._end('refused')
        wait = next(self.waits, None)
        if wait is None:
            return self._end('retries spent')
        if now + wait > self.deadline:
            return self._end('no retry left within the lease')
        return wait

    def _end(self, reason):
        self.reason = reason
        self.ended(self)
        return None


class Slots:
    """Runs deliveries' attempts (see the module)."""

    def __init__(self, workers, per_subscriber, clock=time.monotonic):
        self._pool = futures.ThreadPoolExecutor(
            workers, thread_name_prefix='zaqar-delay-push')
        self._per_subscriber = per_subscriber
        self._clock = clock
        self._lock = threading.Condition()
        self._busy = {}         # subscriber -> attempts in flight
        self._queued = {}       # subscriber -> deque of deliveries
        self._failing = set()   # subscribers whose last attempt failed
        self._retries = []      # heap of (when, serial, delivery)
        self._serial = itertools.count()
        self._timer = None

    def start(self, delivery):
        """Make ``delivery``'s first attempt when its subscriber has a
        free slot."""
        with self._lock:
            self._ready(delivery)

    def subscribers(self):
        """How many subscribers have attempts in flight or queued."""
        with self._lock:
            return len(set(self._busy) | set(self._queued))

    def _limit(self, key):
        # Called with the lock held.
        return (FAILING_SLOTS if key in self._failing
                else self._per_subscriber)

    def _ready(self, delivery):
        # Called with the lock held.
        key = delivery.subscriber
        if self._busy.get(key, 0) < self._limit(key):
            self._busy[key] = self._busy.get(key, 0) + 1
            self._pool.submit(self._run, delivery)
        else:
            self._queued.setdefault(key, collections.deque()).append(
                delivery)

    def _run(self, delivery):
        try:
            wait = delivery.attempt(self._clock())
        except Exception:
            LOG.exception('push attempt failed')
            wait = None
        with self._lock:
            key = delivery.subscriber
            if delivery.delivered:
                self._failing.discard(key)
            elif delivery.attempts:
                self._failing.add(key)
            self._busy[key] -= 1
            queued = self._queued.get(key)
            while queued and self._busy[key] < self._limit(key):
                self._busy[key] += 1
                self._pool.submit(self._run, queued.popleft())
            if not queued:
                self._queued.pop(key, None)
            if not self._busy[key]:
                del self._busy[key]
                if key not in self._queued:
                    self._failing.discard(key)
            if wait is not None:
                heapq.heappush(self._retries, (self._clock() + wait,
                                               next(self._serial), delivery))
                self._wake_timer()

    def _wake_timer(self):
        # Called with the lock held.
        if self._timer is None:
            self._timer = threading.Thread(target=self._time, daemon=True,
                                           name='zaqar-delay-push-retries')
            self._timer.start()
        self._lock.notify_all()

    def _time(self):
        with self._lock:
            while True:
                now = self._clock()
                while self._retries and self._retries[0][0] <= now:
                    self._ready(heapq.heappop(self._retries)[2])
                pause = (self._retries[0][0] - now if self._retries
                         else None)
                self._lock.wait(pause)
