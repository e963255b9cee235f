"""The counters of a dispatcher process."""

from prometheus_client import parser
from prometheus_client import exposition
import testtools

from zaqar_delay.metrics import process


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
