"""Unit tests of ``swift.delay``'s requests made at once."""

import threading

import testtools

from zaqar_delay.storage.swift import parallel


class ParallelTest(testtools.TestCase):

    def test_together_runs_calls_at_once_and_keeps_their_order(self):
        # Each call waits for the other: only calls made at once end.
        meet = threading.Barrier(2, timeout=10)
        self.assertEqual(['a', 'b'], parallel.together(
            lambda: meet.wait() * 0 or 'a', lambda: meet.wait() * 0 or 'b'))

    def test_together_raises_after_every_call_ended(self):
        ended = []

        def slow():
            ended.append('slow')

        def fail():
            raise ValueError('no')

        self.assertRaises(ValueError, parallel.together, fail, slow)
        self.assertEqual(['slow'], ended)

    def test_each_maps_in_order_with_bounded_workers(self):
        running, most, lock = [0], [0], threading.Lock()

        def square(n):
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            try:
                return n * n
            finally:
                with lock:
                    running[0] -= 1

        self.assertEqual([n * n for n in range(40)],
                         parallel.each(square, range(40), workers=3))
        self.assertLessEqual(most[0], 3)
        self.assertEqual([], parallel.each(square, []))
        self.assertEqual([4], parallel.each(square, [2]))
