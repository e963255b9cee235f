import testtools

from zaqar_delay.storage.redis import readies


class FirstTest(testtools.TestCase):
    """The first ready message, from ``ask``'s and ``ask_first``'s
    replies: the chunks' and an earlier version's set, by rank."""

    def replies(self, old=()):
        return [b'3', len(old), [b'1'], list(old)]

    def test_the_lowest_rank_of_chunks_and_earlier_set(self):
        # Chunk 1's first offset, 2: rank 130.
        chunk = [[b'2'], [(b'a', 129.0), (b'b', 130.0), (b'c', 131.0)]]
        self.assertEqual(b'b', readies.first(self.replies(), chunk))
        self.assertEqual(b'x', readies.first(
            self.replies([(b'x', 7.0)]), chunk))
        self.assertEqual(b'b', readies.first(
            self.replies([(b'x', 140.0)]), chunk))
        self.assertEqual(4, readies.count(self.replies([(b'x', 7.0)])))

    def test_none_when_nothing_is_ready(self):
        self.assertIsNone(readies.first([None, 0, [], []], []))
        self.assertEqual(0, readies.count([None, 0, [], []]))
