"""The runner: the tick pass and the push pass in turn, and its sleeps,
with an injected clock."""

import threading
import types

import testtools

from tests.unit.push import test_dispatcher
from zaqar_delay.push import runner


class Ticker:
    """A tick pass that records its rounds in ``log``."""

    def __init__(self, log, due=None):
        self.log, self.due = log, due

    def run_once(self):
        self.log.append('ticks')
        return 0

    def next_due(self):
        return self.due


class Wake(threading.Event):
    """An event whose waits return at once, recording their timeouts."""

    def __init__(self):
        super().__init__()
        self.pauses = []

    def wait(self, timeout=None):
        self.pauses.append(timeout)
        return False


class Pusher:
    """A push pass that records its rounds in ``log`` and sets ``stop``
    after ``rounds`` of them."""

    poll_interval, batch_size = 30, 10

    def __init__(self, log, stop, rounds):
        self.log, self.stop, self.rounds = log, stop, rounds
        self.wake = Wake()
        self.watched = None

    def run_once(self):
        self.log.append('pushes')
        if self.log.count('pushes') == self.rounds:
            self.stop.set()
        return 0

    def next_due(self):
        return None

    def clock(self):
        return 100

    def watch(self, stop):
        self.watched = stop

    def flush(self):
        self.log.append('flush')


class RunnerSleepTest(testtools.TestCase):
    """``wait`` on a real push pass (poll_interval 0.5)."""

    make = test_dispatcher.DispatcherTest.make

    def wait(self, pending_pushes, taken=1, ticks_due=None, looked=100):
        pusher = self.make(pending_pushes, 100)
        pusher.looked = looked      # as if its last pass had looked then
        ticker = None if ticks_due is None else Ticker([], ticks_due)
        return runner.Runner(pusher, ticker).wait(taken)

    def test_idle_it_sleeps_the_poll_interval(self):
        self.assertEqual(0.5, self.wait({}))

    def test_it_sleeps_until_the_next_due_time_when_sooner(self):
        self.assertAlmostEqual(0.2, self.wait({'q/a': 100.2}))
        self.assertEqual(0.0, self.wait({'q/a': 90}))
        self.assertEqual(0.5, self.wait({'q/a': 130}))

    def test_a_due_push_it_could_not_take_is_not_polled_in_a_loop(self):
        self.assertEqual(0.5, self.wait({'q/a': 90}, taken=0))
        self.assertEqual(0.5, self.wait({'q/a': 99.95}, taken=0,
                                        looked=99.95))

    def test_a_push_due_since_the_pass_looked_is_taken_at_once(self):
        # The pass took what was due at 99.9 and ended at 100: the push
        # due at 99.95 came due in between.
        self.assertEqual(0.0, self.wait({'q/a': 99.95}, taken=0,
                                        looked=99.9))

    def test_the_next_schedule_look_counts_when_sooner(self):
        self.assertAlmostEqual(0.25, self.wait({'q/a': 130},
                                               ticks_due=100.25))
        self.assertAlmostEqual(0.1, self.wait({'q/a': 100.1},
                                              ticks_due=100.25))


class RunnerTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.log, self.stop = [], threading.Event()

    def test_a_round_ticks_then_pushes(self):
        made = runner.Runner(Pusher(self.log, self.stop, 2),
                             Ticker(self.log))
        self.assertEqual(0, made.run_once())
        self.assertEqual(['ticks', 'pushes'], self.log)

    def test_without_a_schedule_index_it_only_pushes(self):
        made = runner.Runner(Pusher(self.log, self.stop, 2))
        made.run(self.stop)
        self.assertEqual(['pushes', 'pushes', 'flush'], self.log)

    def test_it_runs_until_stopped_watching_the_store(self):
        pusher = Pusher(self.log, self.stop, 3)
        runner.Runner(pusher, Ticker(self.log)).run(self.stop)
        self.assertEqual(['ticks', 'pushes'] * 3 + ['flush'], self.log)
        self.assertIs(self.stop, pusher.watched)
        self.assertEqual([30, 30, 30], pusher.wake.pauses)

    def test_a_poke_brings_the_next_round_close(self):
        pusher = Pusher(self.log, self.stop, 2)
        made = runner.Runner(pusher)
        made.poke()
        made.run(self.stop)
        self.assertEqual([runner.POKED_PAUSE, 30], pusher.wake.pauses)

    def test_the_drivers_tick_pass_is_built_beside_its_push_pass(self):
        conf = test_dispatcher._conf()
        data = types.SimpleNamespace(
            push_store=None, message_controller=None,
            subscription_controller=None, clock=lambda: 100)
        self.assertIsNone(runner.build(data, None, conf).ticker)
