"""The dead-letter policy read from a queue's metadata."""

import testtools

from zaqar_delay import deadletter


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
