import testtools

from zaqar_delay import delay
from zaqar_delay import errors


class QueueDefaultTest(testtools.TestCase):

    def test_default_is_read_from_metadata(self):
        self.assertEqual(30, delay.queue_default(
            {'_default_message_delay': 30}))

    def test_missing_zero_or_invalid_defaults_mean_no_delay(self):
        for meta in (None, {}, {'_default_message_delay': 0},
                     {'_default_message_delay': -5},
                     {'_default_message_delay': '30'},
                     {'_default_message_delay': True}):
            self.assertEqual(0, delay.queue_default(meta), meta)


class CheckQueueDefaultTest(testtools.TestCase):

    def test_whole_seconds_up_to_the_maximum_or_null_pass(self):
        for meta in ({}, {'_default_message_delay': None},
                     {'_default_message_delay': 0},
                     {'_default_message_delay': 900}):
            self.assertIsNone(delay.check_queue_default(meta, 900))

    def test_booleans_and_every_other_value_are_refused(self):
        # true is an int in Python: Zaqar's own check lets it pass.
        for value, shown in ((True, 'true'), (False, 'false'),
                             ('ten', '"ten"'), (-1, '-1'), (901, '901'),
                             (1.5, '1.5'), ([], '[]')):
            error = self.assertRaises(
                errors.Refused, delay.check_queue_default,
                {'_default_message_delay': value}, 900)
            self.assertEqual(
                '_default_message_delay must be a whole number of seconds '
                'from 0 to 900 ([transport] max_message_delay), not %s.'
                % shown, str(error))


class ResolveTest(testtools.TestCase):

    def test_message_delay_wins_over_the_queue_default(self):
        self.assertEqual(0, delay.resolve({'delay': 0}, 600))
        self.assertEqual(600, delay.resolve({}, 600))


class CheckTest(testtools.TestCase):

    def check(self, delay_value, ttl=3600, max_delay=900,
              policy=delay.REJECT):
        delay.check({'ttl': ttl}, delay_value, max_delay, policy)

    def test_bounds(self):
        self.check(0)
        self.check(900)
        error = self.assertRaises(errors.Refused, self.check, 901)
        self.assertIn('between 0 and 900 seconds; got 901', str(error))
        self.assertRaises(errors.Refused, self.check, -1)

    def test_type(self):
        for value in ('10', 1.5, None, True):
            error = self.assertRaises(errors.Refused, self.check, value)
            self.assertIn('integer number of seconds', str(error))

    def test_ttl_ending_before_the_delay(self):
        error = self.assertRaises(errors.Refused, self.check, 600,
                                  ttl=600)
        self.assertIn('ttl 600 would expire before its delay of 600',
                      str(error))
        self.check(600, ttl=600, policy=delay.ACCEPT)
        self.check(599, ttl=600)
        self.check(0, ttl=60)

    def test_prepare_checks_every_message(self):
        msgs = [{'ttl': 3600}, {'ttl': 3600, 'delay': 5}]
        self.assertEqual([60, 5], delay.prepare(msgs, 60, 900, delay.REJECT))
        msgs.append({'ttl': 10})
        self.assertRaises(errors.Refused, delay.prepare, msgs, 60, 900,
                          delay.REJECT)


class StatsTest(testtools.TestCase):

    def test_counts_add_up(self):
        self.assertEqual({'total': 10, 'claimed': 3, 'delayed': 2,
                          'free': 5, 'next_due': '1970-01-01T00:01:40.000Z'},
                         delay.stats(10, 3, 2, next_due=100))

    def test_free_is_never_negative(self):
        counts = delay.stats(3, 5, 4, next_due=None)
        self.assertEqual((3, 0, 0), (counts['claimed'], counts['delayed'],
                                     counts['free']))
        self.assertNotIn('next_due', counts)

    def test_no_next_due_without_delayed_messages(self):
        self.assertNotIn('next_due', delay.stats(4, 1, 0, next_due=100))


class DueTimeTest(testtools.TestCase):

    def test_due_at_is_never_before_now_plus_the_delay(self):
        for now in (1700000000.0, 1700000000.0004, 1700000000.1239,
                    1700000000.999, 1700000000.9999):
            for seconds in (0, 1, 2, 30, 86400):
                due = delay.due_at(now, seconds)
                self.assertGreaterEqual(due, now + seconds)
                self.assertLess(due, now + seconds + 0.0011)
                self.assertEqual(due, round(due, 3))

    def test_floor_ms_is_never_after_now(self):
        for now in (1700000000.0, 1700000000.1239, 1700000000.9999):
            judged = delay.floor_ms(now)
            self.assertLessEqual(judged, now)
            self.assertGreater(judged, now - 0.001)

    def test_a_due_time_is_due_from_its_millisecond_on(self):
        due = delay.due_at(1700000000.1234, 1)
        self.assertEqual(1700000001.124, due)
        self.assertFalse(due <= delay.floor_ms(1700000001.1239))
        self.assertTrue(due <= delay.floor_ms(1700000001.124))

    def test_upstream_due_is_the_whole_second_it_ends_in(self):
        self.assertEqual(1700000031, delay.upstream_due(1700000030.001))
        self.assertEqual(1700000030, delay.upstream_due(1700000030.0))

    def test_iso_ms(self):
        self.assertEqual('2023-11-14T22:13:20.124Z',
                         delay.iso_ms(1700000000.124))
        self.assertEqual('1970-01-01T00:01:40.000Z', delay.iso_ms(100))
        self.assertEqual('1970-01-01T00:01:41.000Z', delay.iso_ms(100.9999))

    def test_due_asked_by_a_reschedule_or_move(self):
        now = 1700000000.5
        self.assertEqual(now + 30, delay.due_asked(now, 30))
        self.assertEqual(1700000100.124, delay.due_asked(now,
                                                         due=1700000100.1231))
        self.assertEqual(now, delay.due_asked(now, due=1600000000))
        self.assertEqual(now, delay.due_asked(now))
