"""``mongodb.delay``'s pending pushes: in the message document, and the
plan of a take."""

from oslo_utils import timeutils

from tests.common import pushes
from tests.fixtures import mongodb_store
from zaqar_delay import pending
from zaqar_delay.storage.mongodb import queries


class MongoPushesTest(pushes.PendingPushes, mongodb_store.DelayTestBase):

    def test_a_deleted_message_takes_its_push_along(self):
        (mid,) = self.post(2)
        self.messages.delete('q', mid, pushes.PROJECT)
        self.assertIsNone(self.store.next_due())

    def test_an_old_lease_does_not_end_a_new_one(self):
        self.post(2)
        now = timeutils.utcnow_ts(True)
        (old,) = self.store.take(now + 2, 10, 30)
        self.assertEqual(1, len(self.store.take(now + 32, 10, 30)))
        self.store.done([old])
        self.assertEqual(round(now + 32 + 30, 3), self.next_due())

    def test_done_with_attempts_ends_only_its_own_lease(self):
        self.post(2)
        now = timeutils.utcnow_ts(True)
        (old,) = self.store.take(now + 2, 10, 30)
        self.assertEqual(1, len(self.store.take(now + 32, 10, 30)))
        self.store.done([old], [(pending.Attempt(now + 2, 'http://x/',
                                                 None),)])
        self.assertEqual(round(now + 32 + 30, 3), self.next_due())
        (new,) = self.store.take(now + 62, 10, 30)
        self.store.done([new], [(pending.Attempt(now + 62, 'http://x/',
                                                 204),)])
        self.assertIsNone(self.store.next_due())

    def test_taking_reads_only_the_due_pushes(self):
        self.post(*[600] * 500)
        self.post(*[1] * 5)
        now = timeutils.utcnow_ts(True) + 1
        collection = self.messages._collection('q', pushes.PROJECT)
        plan = queries.find(collection, queries.push_due(now),
                            limit=1).explain()
        self.assertEqual('delay_push', mongodb_store.winning_index(plan))
        self.assertLessEqual(plan['executionStats']['totalKeysExamined'],
                             6)
        self.assertEqual(5, len(self.store.take(now, 10, 30)))
