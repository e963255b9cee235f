"""Retry backoff: the wait sequence and the checks on the metadata."""

import testtools

from zaqar_delay import errors
from zaqar_delay import retry


class RetryBackoffTest(testtools.TestCase):

    def test_waits_grow_by_the_factor_up_to_max(self):
        backoff = retry.check({'initial': 1, 'max': 20}, 3600)
        self.assertEqual([1, 2, 4, 8, 16, 20, 20],
                         [retry.seconds(backoff, n) for n in range(1, 8)])

    def test_fractions_round_up_to_whole_seconds(self):
        backoff = retry.check({'initial': 0.5, 'factor': 1.5}, 3600)
        self.assertEqual([1, 1, 2, 2], [retry.seconds(backoff, n)
                                        for n in range(1, 5)])

    def test_a_huge_claim_count_is_capped_not_an_overflow(self):
        backoff = retry.check({'initial': 1.0, 'factor': 10.0}, 3600)
        self.assertEqual(3600, retry.seconds(backoff, 100000))

    def test_defaults_factor_2_and_max_the_maximum_delay(self):
        self.assertEqual(retry.Backoff(3, 2, 900),
                         retry.check({'initial': 3}, 900))

    def test_bad_values_are_refused_with_the_reason(self):
        for value, reason in (
                ([1], 'must be an object'),
                ({'factor': 2}, 'initial must be'),
                ({'initial': True}, 'initial must be'),
                ({'initial': -1}, 'initial must be'),
                ({'initial': 1, 'factor': 0.9}, 'factor must be'),
                ({'initial': 1, 'factor': '2'}, 'factor must be'),
                ({'initial': 1, 'max': 0}, 'max must be'),
                ({'initial': 1, 'max': 901}, 'max must be'),
                ({'initial': 1, 'jitter': 1}, 'unknown fields: jitter')):
            error = self.assertRaises(errors.Refused, retry.check, value,
                                      900)
            self.assertIn(reason, str(error))

    def test_a_queue_with_bad_stored_metadata_has_no_backoff(self):
        self.assertIsNone(retry.of_queue({retry.KEY: {'initial': 0}}, 900))
        self.assertIsNone(retry.of_queue({}, 900))
        self.assertEqual((0, 1, 0), retry.terms(None))
