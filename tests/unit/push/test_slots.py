"""Bounded attempts: threads, slots per subscriber, retries off-thread."""

import threading
import time

import testtools

from zaqar_delay.push import policy
from zaqar_delay.push import slots


class SlotsTest(testtools.TestCase):

    def delivery(self, subscriber, send, waits=(), deadline=None):
        ended = threading.Event()
        made = slots.Delivery(subscriber, send, waits,
                              deadline or time.monotonic() + 60,
                              lambda d: ended.set())
        made.finished = ended
        return made

    def test_a_hanging_subscriber_holds_only_its_own_slots(self):
        release = threading.Event()
        running = []

        def hang():
            running.append(1)
            release.wait(10)
            return policy.DONE, 204

        before = threading.active_count()
        runner = slots.Slots(workers=4, per_subscriber=2)
        self.addCleanup(release.set)
        hung = [self.delivery('slow', hang) for _ in range(10)]
        for made in hung:
            runner.start(made)
        fine = [self.delivery('fast', lambda: (policy.DONE, 204))
                for _ in range(20)]
        for made in fine:
            runner.start(made)
        for made in fine:
            self.assertTrue(made.finished.wait(5))
        self.assertEqual(2, len(running))   # its two slots, no more
        release.set()
        for made in hung:
            self.assertTrue(made.finished.wait(5))
        self.assertLessEqual(threading.active_count(), before + 4)
        # A delivery ends inside its attempt; its slot is freed after.
        deadline = time.monotonic() + 5
        while runner.subscribers() and time.monotonic() < deadline:
            time.sleep(0.01)
        self.assertEqual(0, runner.subscribers())

    def test_a_retry_waits_without_a_thread_and_ends_delivered(self):
        answers = [(policy.RETRY, 503), (policy.DONE, 200)]
        runner = slots.Slots(workers=1, per_subscriber=1)
        made = self.delivery('a', lambda: answers.pop(0), waits=[0.2])
        other = self.delivery('b', lambda: (policy.DONE, 204))
        runner.start(made)
        runner.start(other)
        self.assertTrue(other.finished.wait(5))
        self.assertTrue(made.finished.wait(5))
        self.assertEqual((True, 2, 200),
                         (made.delivered, made.attempts, made.status))

    def test_spent_retries_and_refusals_end_undelivered(self):
        runner = slots.Slots(workers=2, per_subscriber=2)
        spent = self.delivery('a', lambda: (policy.RETRY, None), [0, 0])
        refused = self.delivery('b', lambda: (policy.FAILED, 404), [0, 0])
        late = self.delivery('c', lambda: (policy.RETRY, 500), [5],
                             deadline=time.monotonic() + 1)
        for made in (spent, refused, late):
            runner.start(made)
            self.assertTrue(made.finished.wait(5))
        self.assertEqual((False, 3, 'retries spent'),
                         (spent.delivered, spent.attempts, spent.reason))
        self.assertEqual((False, 1, 'refused'),
                         (refused.delivered, refused.attempts,
                          refused.reason))
        self.assertEqual((1, 'no retry left within the lease'),
                         (late.attempts, late.reason))

    def test_a_failing_subscriber_gets_one_slot_until_it_answers(self):
        lock = threading.Lock()
        inflight = [0]
        started = []    # attempts in flight when each began, itself too

        def send(answer):
            with lock:
                inflight[0] += 1
                started.append(inflight[0])
            time.sleep(0.02)
            with lock:
                inflight[0] -= 1
            return answer

        runner = slots.Slots(workers=8, per_subscriber=5)
        refused = [self.delivery('a', lambda: send((policy.FAILED, 404)))
                   for _ in range(20)]
        for made in refused:
            runner.start(made)
        for made in refused:
            self.assertTrue(made.finished.wait(10))
        # Five began before any had failed; then one at a time.
        self.assertEqual([1] * 15, started[5:])
        # An answer gives the subscriber its five slots back: one that
        # fails at once, then ten that answer (the first of those ends
        # its failing while the others wait for a slot).
        del started[:]
        runner = slots.Slots(workers=8, per_subscriber=5)
        first = self.delivery('a', lambda: (policy.FAILED, 404))
        fine = [self.delivery('a', lambda: send((policy.DONE, 204)))
                for _ in range(30)]
        for made in [first] + fine:
            runner.start(made)
        for made in fine:
            self.assertTrue(made.finished.wait(10))
        self.assertEqual(5, max(started[-10:]))
