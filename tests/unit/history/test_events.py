import testtools

from zaqar_delay import errors
from zaqar_delay.history import events


def event(at, mid='m1', kind=events.CLAIMED, **fields):
    return events.Event(at, mid, kind, fields)


class HistoryTtlTest(testtools.TestCase):

    def test_of_queue_is_the_ttl_or_0(self):
        self.assertEqual(60, events.of_queue({'_history_ttl': 60}, 3600))
        self.assertEqual(0, events.of_queue({}, 3600))
        self.assertEqual(0, events.of_queue(None, 3600))
        # Stored unchecked (a pool): refused values keep no history.
        for bad in (0, 3601, 'x', 2.5, False):
            self.assertEqual(0, events.of_queue({'_history_ttl': bad}, 3600))

    def test_check_says_the_maximum(self):
        events.check({}, 10)
        events.check({'_history_ttl': 10}, 10)
        error = self.assertRaises(errors.Refused, events.check,
                                  {'_history_ttl': 11}, 10)
        self.assertIn('at most 10 ([delay] max_history_ttl), not 11',
                      str(error))


class SelectTest(testtools.TestCase):

    def test_times_ids_and_kinds_filter(self):
        found = [event(10, 'a', events.POSTED), event(20, 'b'),
                 event(30, 'a', events.DELETED, claim='c')]
        self.assertEqual([20, 30], [e.at for e in events.select(
            found, since=20)])
        self.assertEqual([10, 20], [e.at for e in events.select(
            found, until=20)])
        self.assertEqual([10, 30], [e.at for e in events.select(
            found, message_id='a')])
        self.assertEqual([30], [e.at for e in events.select(
            found, message_id='a', kind=events.DELETED)])


class FormatTest(testtools.TestCase):

    def test_parse_time_takes_seconds_and_iso(self):
        self.assertEqual(1700000000.5, events.parse_time('1700000000.5'))
        self.assertEqual(86400, events.parse_time('1970-01-02T00:00:00Z'))
        self.assertEqual(86400, events.parse_time('1970-01-02T00:00:00'))
        self.assertEqual(82800,
                         events.parse_time('1970-01-02T00:00:00+01:00'))
        self.assertRaises(ValueError, events.parse_time, 'yesterday')

    def test_line_and_json(self):
        posted = event(86400, 'm1', events.POSTED, ttl='60', dedup='',
                       body={'x': 1})
        self.assertEqual('1970-01-02T00:00:00Z  m1  posted         ttl=60',
                         events.as_line(posted))
        self.assertEqual({'at': 86400, 'time': '1970-01-02T00:00:00Z',
                          'message_id': 'm1', 'kind': 'posted',
                          'ttl': '60', 'dedup': '', 'body': {'x': 1}},
                         events.as_json(posted))
