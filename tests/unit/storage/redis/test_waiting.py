"""Adding up the reads of a queue's waiting chunks (``waiting.answer``)."""

import testtools

from zaqar_delay.storage.redis import waiting


class AnswerTest(testtools.TestCase):

    def test_nothing_waits(self):
        self.assertEqual(waiting.Waiting(0, 0, None, None),
                         waiting.answer([None, [], []], []))

    def test_none_due(self):
        # The first chunk after now gives both times.
        self.assertEqual(waiting.Waiting(5, 0, 130.0, 130.0),
                         waiting.answer([b'5', [], [(b'2', 130.0)]], []))

    def test_due_chunks_are_summed_and_their_later_entries_count(self):
        replies = [b'9', [(b'0', 90.0), (b'3', 95.0)], [(b'1', 140.0)]]
        # chunk 0: 2 due, next at 120; chunk 3: 1 due, none later.
        chunks = [2, [(b'7', 120.0)], 1, []]
        self.assertEqual(waiting.Waiting(9, 3, 90.0, 120.0),
                         waiting.answer(replies, chunks))
