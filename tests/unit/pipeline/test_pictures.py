"""The data behind the audit's pictures, and the pictures drawn."""

import datetime
import math
import os
import tempfile

import testtools

from zaqar_delay.pipeline import pictures

NOW = 1795334400.0          # 2026-11-22 08:00:00 UTC, an hour boundary


def minute(offset):
    """A forecast minute as Spark returns it: a naive local datetime."""
    return datetime.datetime.fromtimestamp(NOW + offset)


class BucketTest(testtools.TestCase):

    def test_the_bucket_grows_with_the_horizon(self):
        self.assertEqual([1, 1, 5, 15, 60, 60, 1440], [
            pictures.bucket_minutes(h)
            for h in (0.5, 1, 6, 24, 72, 24 * 7, 24 * 30)])


class DueSeriesTest(testtools.TestCase):

    def test_every_bucket_of_the_horizon_is_there_empty_ones_at_zero(self):
        # 200 due at 08:30, 30 at 11:00, over 3 hours: 5-minute buckets.
        rows = [('p', 'a', minute(30 * 60), 200),
                ('p', 'a', minute(3 * 3600 - 60 * 0), 30)]
        data = pictures.due_series(rows, NOW, 3)
        self.assertEqual(5, data.minutes)
        self.assertEqual(3 * 12 + 1, len(data.total))
        self.assertEqual(len(data.total) + 1, len(data.edges))
        self.assertEqual(NOW, data.edges[0])
        self.assertGreaterEqual(data.edges[-1], NOW + 3 * 3600)
        self.assertEqual(200, data.total[6])
        self.assertEqual(30, data.total[36])
        self.assertEqual(230, sum(data.total))
        self.assertEqual(2, sum(1 for c in data.total if c))

    def test_minutes_fall_in_their_bucket_and_totals_match_the_table(self):
        rows = [('p', 'a', minute(60 * m), 1) for m in range(0, 120, 7)]
        rows += [('p', 'b', minute(60 * 17), 4)]
        data = pictures.due_series(rows, NOW + 20, 2)     # 1-minute
        self.assertEqual(1, data.minutes)
        self.assertEqual(sum(r[3] for r in rows), sum(data.total))
        self.assertEqual(NOW, data.edges[0])    # the bucket holding now
        self.assertEqual([1, 0, 0, 0, 0, 0, 0, 1], data.total[:8])
        self.assertEqual(4 + 0, dict(data.queues)['p/b'][17])

    def test_a_single_bucket_queue_is_drawn(self):
        data = pictures.due_series([('p', 'one', minute(600), 3)], NOW, 1)
        (name, counts), = data.queues
        self.assertEqual('p/one', name)
        self.assertEqual(3, counts[10])
        self.assertEqual(3, sum(counts))

    def test_largest_queues_on_their_own_the_rest_as_other(self):
        rows = [('p', 'q%d' % i, minute(60), i + 1) for i in range(12)]
        data = pictures.due_series(rows, NOW, 1, lines=3)
        names = [name for name, _ in data.queues]
        self.assertEqual(['p/q11', 'p/q10', 'p/q9', pictures.OTHER], names)
        self.assertEqual(sum(range(1, 10)), sum(data.queues[-1][1]))
        self.assertEqual(sum(data.total),
                         sum(sum(c) for _, c in data.queues))

    def test_numbers_are_read_as_unix_seconds_and_outside_rows_dropped(self):
        data = pictures.due_series(
            [(None, 'q', NOW + 120, 2), (None, 'q', NOW + 7200, 9)], NOW, 1)
        self.assertEqual(2, sum(data.total))
        self.assertEqual('-/q', data.queues[0][0])


class LatenessSeriesTest(testtools.TestCase):

    def test_cumulative_shares_end_at_one(self):
        rows = [('p', 'a', 0, 2), ('p', 'a', 3, 2), ('p', 'b', 10, 1)]
        data = pictures.lateness_series(rows)
        self.assertEqual(math.inf, data.edges[-1])
        shares = {name: (timed, s) for name, timed, s in data.queues}
        self.assertEqual(4, shares['p/a'][0])
        self.assertEqual([0.5, 0.5, 0.5, 1.0], shares['p/a'][1][:4])
        self.assertEqual(1.0, shares['p/a'][1][-1])
        self.assertEqual([0.0] * 10 + [1.0], shares['p/b'][1])


class TimelineTest(testtools.TestCase):

    def test_the_narrowest_width_covering_the_span(self):
        self.assertEqual([1, 1, 10, 60, 300, 86400], [
            pictures.timeline_width(NOW, NOW + span)
            for span in (0, 240, 241, 2400 + 1, 4 * 3600 + 1,
                         10 * 86400 * 240)])

    def test_queues_with_the_most_deliveries_drawn_in_time_order(self):
        every = [(NOW + 60, 3, 1.0, 2.0, 2.0, 2.0),
                 (NOW, 5, 0.0, 1.0, 1.0, 9.0)]
        rows = [('p', 'a', NOW + 60, 1, 2.0), ('p', 'a', NOW, 1, 0.0),
                ('p', 'b', NOW, 4, 1.0), ('p', 'b', NOW + 60, 2, 2.0),
                ('p', 'c', NOW, 1, 9.0)]
        data = pictures.timeline_series(every, rows, 60, lines=2)
        self.assertEqual(60, data.width)
        self.assertEqual([NOW, NOW + 60], [r[0] for r in data.every])
        self.assertEqual([('p/b', [(NOW, 1.0), (NOW + 60, 2.0)]),
                          ('p/a', [(NOW, 0.0), (NOW + 60, 2.0)])],
                         data.queues)


class DrawTest(testtools.TestCase):

    def test_pictures_are_written(self):
        out = tempfile.mkdtemp(prefix='zaqar-delay-pictures-')
        due = os.path.join(out, 'due.png')
        late = os.path.join(out, 'late.png')
        timeline = os.path.join(out, 'timeline.png')
        pictures.draw_timeline(pictures.timeline_series(
            [(NOW, 2, 1.0, 3.0, 3.0, 3.0)], [('p', 'a', NOW, 2, 3.0)], 60),
            timeline)
        pictures.draw_due(pictures.due_series(
            [('p', 'a', minute(60), 5)], NOW, 48), due, 48)
        pictures.draw_lateness(pictures.lateness_series(
            [('p', 'a', 2, 5)]), late)
        for path in (due, late, timeline):
            with open(path, 'rb') as png:
                self.assertEqual(b'\x89PNG', png.read(4))
