"""The counters of a dispatcher process."""

import types

from prometheus_client import parser
from prometheus_client import exposition
import testtools

from tests.unit.push import test_ticker
from zaqar_delay.metrics import process
from zaqar_delay.schedules import definition


def samples():
    text = exposition.generate_latest(process.REGISTRY).decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in parser.text_string_to_metric_families(text)
            for s in family.samples}


def growth(before):
    """A function of (name, **labels): how much that sample grew since
    ``before`` (a ``samples()``)."""
    after = samples()

    def grew(name, **labels):
        key = (name, tuple(sorted(labels.items())))
        return after[key] - before.get(key, 0)
    return grew


class ProcessTest(testtools.TestCase):

    def test_host_label_of_subscribers(self):
        self.assertEqual('hooks.example.org', process.host(
            'https://user:pw@hooks.example.org:8443/x?y=1'))
        self.assertEqual('mailto', process.host('mailto:ops@example.org'))

    def test_pushes_counted_by_host_and_outcome(self):
        before = samples()
        process.push_ended('http://a.example/x', True, 0.2)
        process.push_ended('http://a.example/y', False, 3)
        after = samples()

        def grew(name, **labels):
            key = (name, tuple(sorted(labels.items())))
            return after[key] - before.get(key, 0)

        self.assertEqual(1, grew('zaqar_delay_pushes_sent_total',
                                 subscriber_host='a.example'))
        self.assertEqual(1, grew('zaqar_delay_pushes_failed_total',
                                 subscriber_host='a.example'))
        self.assertEqual(2, grew('zaqar_delay_push_delivery_seconds_count'))
        self.assertEqual(1, grew('zaqar_delay_push_delivery_seconds_bucket',
                                 le='0.25'))

    def test_ticks_and_their_lateness(self):
        before = samples()
        process.ticks_posted(100, [40, 99, 100])
        after = samples()

        def grew(name, **labels):
            key = (name, tuple(sorted(labels.items())))
            return after[key] - before.get(key, 0)

        self.assertEqual(3, grew('zaqar_delay_schedule_ticks_posted_total'))
        self.assertEqual(61, grew(
            'zaqar_delay_schedule_tick_lateness_seconds_sum'))
        self.assertEqual(2, grew(
            'zaqar_delay_schedule_tick_lateness_seconds_bucket', le='1.0'))

    def test_push_lateness_and_early_deliveries(self):
        before = samples()
        self.assertIn(('zaqar_delay_early_deliveries_total',
                       (('via', 'push'),)), before)     # 0 from the start
        process.push_late(1.5)
        process.push_late(-0.2)     # a clock behind the due time's
        process.pushed_early()
        grew = growth(before)
        self.assertEqual(2, grew('zaqar_delay_push_lateness_seconds_count'))
        self.assertEqual(1.5, grew('zaqar_delay_push_lateness_seconds_sum'))
        self.assertEqual(1, grew('zaqar_delay_push_lateness_seconds_bucket',
                                 le='0.05'))
        self.assertEqual(1, grew('zaqar_delay_early_deliveries_total',
                                 via='push'))


def missed():
    return samples().get(('zaqar_delay_schedule_ticks_missed_total', ()), 0)


class MissedTicksTest(testtools.TestCase):
    """Ticks a pass skips, counted as missed: the schedule pass on the
    in-memory store of the ticker's tests, with an injected clock."""

    def setUp(self):
        super().setUp()
        self.now = 1000
        self.store = test_ticker.Store()
        self.messages = test_ticker.Messages()
        self.queues = test_ticker.Queues()
        self.driver = types.SimpleNamespace(
            schedule_store=self.store, message_controller=self.messages,
            clock=lambda: self.now, conf=test_ticker._conf())

    ticker = test_ticker.TickerTest.ticker
    define = test_ticker.TickerTest.define
    ticks = test_ticker.TickerTest.ticks
    run_until = test_ticker.TickerTest.run_until

    def missed(self):
        return missed()

    def test_ticks_skipped_after_an_outage_are_missed(self):
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1})
        one = self.ticker()
        self.run_until(1004, one)               # posts 1002, 1004
        before = self.missed()
        self.now = 1030                         # no dispatcher ran
        self.ticker().run_once()                # one restarted
        # 1006 .. 1030: the ticks at most LATE (5) s old are posted
        # (1026, 1028, 1030), the 10 before them missed.
        self.assertEqual(10, self.missed() - before)
        self.assertIn('1970-01-01T00:17:10Z', self.ticks())

    def test_ticks_beyond_max_catch_up_are_missed(self):
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1,
                            'catch_up': 'all', 'max_catch_up': 3})
        one = self.ticker()
        self.run_until(1002, one)
        before = self.missed()
        self.now = 1020
        one.run_once()                          # 1016, 1018, 1020
        self.assertEqual(6, self.missed() - before)

    def test_a_pass_on_time_misses_none(self):
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1})
        before = self.missed()
        self.run_until(1020, self.ticker())
        self.assertEqual(0, self.missed() - before)
        self.assertEqual(10, len(self.ticks()))


class CronMissedTest(testtools.TestCase):

    def test_cron_ticks_between_two_afters_are_counted(self):
        schedule, = definition.of_queue({'_schedules': [
            {'name': 'c', 'cron': '* * * * *', 'body': 1}]}, 3600)
        before = missed()
        # Ten minutes, the last two ticks posted: eight missed.
        process.ticks_planned(schedule, 600, 1200, [1140, 1200])
        process.ticks_planned(schedule, None, 1200, [])      # new
        self.assertEqual(8, missed() - before)
