"""What a wsgi.delay body may ask about due times."""

import testtools

from zaqar_delay import errors
from zaqar_delay.transport.wsgi import bodies

NOW = 1800000000.0


class PostingTest(testtools.TestCase):

    def posting(self, everywhere=False):
        return bodies.Posting(3600, everywhere, clock=lambda: NOW)

    def test_due_times_with_a_zone_only(self):
        when = self.posting().when
        self.assertEqual({'due': NOW + 60.5},
                         when({'due': '2027-01-15T08:01:00.500Z'}))
        self.assertEqual({'due': NOW + 60},
                         when({'due': '2027-01-15T09:01:00+01:00'}))
        for bad in ('2027-01-15T08:01:00', 'tomorrow', 5, None, ''):
            self.assertRaises(errors.Refused, when, {'due': bad})

    def test_a_due_time_past_the_longest_delay_is_refused(self):
        error = self.assertRaises(errors.Refused, self.posting().when,
                                  {'due': '2027-01-15T09:00:01Z'})
        self.assertIn('at most 3600 seconds ahead', str(error))

    def test_delay_or_due_not_both_and_one_of_them_to_reschedule(self):
        when = self.posting().when
        self.assertRaises(errors.Refused, when,
                          {'delay': 1, 'due': '2027-01-15T08:00:00Z'})
        self.assertRaises(errors.Refused, when, {})
        self.assertEqual({}, when({}, required=False))
        self.assertRaises(errors.Refused, when, [1])

    def test_delays_are_whole_seconds_in_range(self):
        when = self.posting().when
        self.assertEqual({'delay': 0}, when({'delay': 0}))
        for bad in (-1, 3601, 1.5, '10', True):
            self.assertRaises(errors.Refused, when, {'delay': bad})

    def test_extras_of_a_post(self):
        document = {'messages': [{'due': '2027-01-15T08:01:00Z'},
                                 {'delay': 5}, {}, 'not a message']}
        self.assertEqual([{'due': NOW + 60}, {}, {}, {}],
                         self.posting().extras(document))
        self.assertEqual([{'due': NOW + 60}, {'delay': 5}, {}, {}],
                         self.posting(everywhere=True).extras(document))
        self.assertEqual([], self.posting().extras({'messages': 'x'}))
        self.assertRaises(errors.Refused, self.posting().extras,
                          {'messages': [{}, {'delay': 'ten'}]})


class MoveTest(testtools.TestCase):

    def test_ids_or_a_limit(self):
        self.assertEqual(bodies.Move('b', ['x', 'y'], None),
                         bodies.move({'to': 'b', 'ids': ['x', 'y', 'x']},
                                     'a'))
        self.assertEqual(bodies.Move('b', None, 10),
                         bodies.move({'to': 'b'}, 'a'))
        self.assertEqual(bodies.Move('b', None, 100),
                         bodies.move({'to': 'b', 'limit': 100}, 'a'))

    def test_refusals_say_why(self):
        for body in ({'ids': ['x']}, {'to': 'a'}, {'to': 'b', 'ids': []},
                     {'to': 'b', 'ids': 'x'}, {'to': 'b', 'limit': 0},
                     {'to': 'b', 'limit': 101}, {'to': 'b', 'limit': '5'},
                     {'to': 'b', 'ids': ['x'], 'limit': 1},
                     {'to': 'b', 'ids': ['x'] * 101}, ['to']):
            error = self.assertRaises(errors.Refused, bodies.move, body,
                                      'a')
            self.assertTrue(str(error), body)


class IdempotencyTest(testtools.TestCase):

    def test_a_key_is_the_messages_identity(self):
        from zaqar_delay import dedup
        posting = bodies.Posting(3600, False, clock=lambda: NOW)
        self.assertEqual([{dedup.IDENTITY: 'client k-1'}, {}],
                         posting.extras({'messages': [
                             {'idempotency_key': 'k-1'}, {}]}))
        for bad in ('', 7, None, 'k' * 257):
            self.assertRaises(errors.Refused, posting.extras,
                              {'messages': [{'idempotency_key': bad}]})
