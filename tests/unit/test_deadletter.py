"""The dead-letter policy read from a queue's metadata."""

import testtools

from zaqar_delay import deadletter
from zaqar_delay import errors


class DeadLetterTest(testtools.TestCase):

    def test_both_keys_make_a_policy(self):
        self.assertEqual(
            deadletter.Policy('dlq.1', 3, None),
            deadletter.of_queue({'_max_claim_count': 3,
                                 '_dead_letter_queue': 'dlq.1'}))
        self.assertEqual(
            deadletter.Policy('dlq', 2, 60),
            deadletter.of_queue({'_max_claim_count': 2,
                                 '_dead_letter_queue': 'dlq',
                                 '_dead_letter_queue_messages_ttl': 60}))

    def test_a_ttl_of_0_keeps_the_messages_own(self):
        self.assertIsNone(deadletter.of_queue({
            '_max_claim_count': 2, '_dead_letter_queue': 'dlq',
            '_dead_letter_queue_messages_ttl': 0}).ttl)

    def test_one_key_alone_is_no_policy(self):
        for meta in (None, {}, {'_max_claim_count': 2},
                     {'_dead_letter_queue': 'dlq'}):
            self.assertIsNone(deadletter.of_queue(meta))
            self.assertFalse(deadletter.moves(deadletter.of_queue(meta), 9))

    def test_moves_past_the_most_claims(self):
        policy = deadletter.Policy('dlq', 2, None)
        self.assertEqual([False, False, True, True],
                         [deadletter.moves(policy, n) for n in (1, 2, 3, 4)])


class CheckTest(testtools.TestCase):

    def test_counts_names_and_nulls_pass(self):
        for meta in ({}, {'_max_claim_count': None,
                          '_dead_letter_queue': None},
                     {'_max_claim_count': 0},
                     {'_max_claim_count': 8, '_dead_letter_queue': 'a.b-c_9'}):
            self.assertIsNone(deadletter.check(meta))

    def test_booleans_negatives_and_non_names_are_refused(self):
        for meta, why in (
                ({'_max_claim_count': True}, 'whole number of claims, not '
                 'true'),
                ({'_max_claim_count': -1}, 'whole number of claims, not -1'),
                ({'_max_claim_count': 2.5}, 'not 2.5'),
                ({'_dead_letter_queue': 5}, 'must name a queue'),
                ({'_dead_letter_queue': ''}, 'not ""'),
                ({'_dead_letter_queue': 'a/b'}, 'not "a/b"'),
                ({'_dead_letter_queue': 'x' * 65}, 'must name a queue')):
            error = self.assertRaises(errors.Refused, deadletter.check,
                                      meta)
            self.assertIn(why, str(error))
