"""The Swift requests that ``swift.delay`` operations make, counted."""

from oslo_utils import timeutils
from zaqar.storage import errors

from tests.common import behaviour
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import index as idx

PROJECT = behaviour.PROJECT
DUE = 'zaqar_delay_due'
CLAIM_EXPIRY = 'zaqar_delay_claim_expiry'
HISTORY = 'zaqar_delay_history'


class SwiftRequestsTest(behaviour.Helpers, swift_store.DelayTestBase):

    def make_drivers(self, conf):
        return swift_store.counting(conf)

    def setUp(self):
        super().setUp()
        self.swift = self.driver.connection
        self.set_default_delay(600)
        # Ten delayed messages ahead, and the index containers made.
        self.post(*[None] * 10)
        self.post(0)
        claim_id, (mid,) = self.claim(limit=1)
        self.messages.delete(self.queue, mid, PROJECT, claim=claim_id)
        timeutils.advance_time_seconds(1)

    def test_a_claim_of_k_makes_4k_plus_5_requests_and_5_a_shard(self):
        # Per message: the lock's create, the message's GET and PUT, the
        # ready entry's delete; per shard (the messages posted in one
        # second): the lease's bid, door and the bid's read-back, then
        # the door's and the bid's deletes (locks.lease); per claim: the
        # ready listing, the claim's expiry entry and object, and
        # promotion's two listings.
        self.post(0, 0, 0)
        self.swift.clear()
        _, ids = self.claim(limit=3)
        self.assertEqual(3, len(ids))
        shards = {idx.shard(mid) for mid in ids}
        self.assertEqual(4 * 3 + 5 + 5 * len(shards), self.swift.total())
        self.assertEqual(0, self.swift.total(kind='zaqar_delay_waiting'))

    def test_a_delete_with_its_claim_makes_three_requests(self):
        self.post(0)
        claim_id, (mid,) = self.claim(limit=1)
        self.swift.clear()
        self.messages.delete(self.queue, mid, PROJECT, claim=claim_id)
        # The lock's read, the message's delete, the lock's delete.
        self.assertEqual(3, self.swift.total())
        self.assertRaises(errors.MessageDoesNotExist, self.messages.get,
                          self.queue, mid, PROJECT)

    def test_promotion_lists_once_a_second_when_it_caught_up(self):
        self.post(0, 0)
        self.swift.clear()
        self.claim(limit=1)
        self.assertEqual(1, self.swift.total('get_container', DUE))
        self.assertEqual(1, self.swift.total('get_container', CLAIM_EXPIRY))
        self.claim(limit=1)
        self.list_ids()
        self.assertEqual(1, self.swift.total('get_container', DUE))
        timeutils.advance_time_seconds(1)
        self.claim(limit=1)
        self.assertEqual(2, self.swift.total('get_container', DUE))
        self.assertEqual(2, self.swift.total('get_container', CLAIM_EXPIRY))

    def test_a_promotion_that_moved_a_full_batch_runs_again(self):
        self.config(promote_batch_size=2, group='delay')
        timeutils.advance_time_seconds(600)     # all ten come due
        self.swift.clear()
        _, first = self.claim(limit=1)
        _, second = self.claim(limit=1)
        self.assertEqual(2, self.swift.total('get_container', DUE))
        self.assertEqual(1, len(first))
        self.assertEqual(1, len(second))

    def test_a_reschedule_makes_14_or_15_requests(self):
        # The object and its lock read at once; the hold: the lease's
        # bid, door and read-back, the lock, the lease's two deletes;
        # the object again; the due and waiting entries (later) or the
        # ready entry (now); the content; the entries of its old state
        # (ready or waiting, and the due entry it had); the hold's
        # delete.
        (mid,) = self.post(0)
        for wait, requests in ((60, 15), (0, 14)):
            self.swift.clear()
            self.messages.reschedule(self.queue, mid, PROJECT, delay=wait)
            self.assertEqual(requests, self.swift.total())

    def test_a_move_of_k_makes_11k_plus_5_requests_a_shard(self):
        # Per message: its object and lock read at once, its lock, its
        # object again, the copy and its ready entry, the original's
        # delete, then its ready, waiting and due entries' deletes and
        # the lock's; per shard, the lease (five, as a claim's).
        target = self.queue + '-to'
        self.queues.create(target, project=PROJECT)
        self.post(0, 600, queue=target)     # its containers made
        ids = self.post(0, 0)
        shards = {idx.shard(mid) for mid in ids}
        self.swift.clear()
        moved = self.messages.move(self.queue, target, PROJECT, ids=ids)
        self.assertEqual(ids, [old for old, _ in moved])
        self.assertEqual(11 * 2 + 5 * len(shards), self.swift.total())


class SwiftHistoryRequestsTest(behaviour.Helpers, swift_store.DelayTestBase):
    """What ``_history_ttl`` costs in requests: nothing when it is off,
    one PUT an event (and a GET a delete with its claim, and its
    ``deleted`` event's marker) when it is on."""

    def make_drivers(self, conf):
        return swift_store.counting(conf)

    def setUp(self):
        super().setUp()
        self.swift = self.driver.connection
        self.post(0)                    # the containers made
        claim_id, (mid,) = self.claim(limit=1)
        self.messages.delete(self.queue, mid, PROJECT, claim=claim_id)
        timeutils.advance_time_seconds(1)

    def life(self):
        """Requests of a post, a claim of it, a delete with the claim;
        the claim id."""
        self.swift.clear()
        self.post(0)
        posted = self.swift.total()
        self.swift.clear()
        claim_id, (mid,) = self.claim(limit=1)
        claimed = self.swift.total()
        self.swift.clear()
        self.messages.delete(self.queue, mid, PROJECT, claim=claim_id)
        return (posted, claimed, self.swift.total()), claim_id

    def test_off_costs_nothing_more(self):
        counts, claim_id = self.life()
        # The message's PUT and its ready entry's; the claim of one
        # (test_a_claim_of_k_makes_4k_plus_5_requests_and_5_a_shard);
        # the lock's read, the message's delete, the lock's delete.
        self.assertEqual((2, 4 + 5 + 5, 3), counts)
        self.assertFalse(claim_id.startswith(history.HISTORY_CLAIM))
        self.assertEqual(0, self.swift.total(kind=HISTORY))

    def test_on_costs_a_put_an_event(self):
        self.queues.set_metadata(self.queue, {'_history_ttl': 3600},
                                 project=PROJECT)
        self.life()                     # the history container made
        timeutils.advance_time_seconds(1)
        counts, claim_id = self.life()
        # One PUT an event; the delete reads the message (its history)
        # and creates its deleted event's marker first.
        self.assertEqual((3, 4 + 5 + 5 + 1, 3 + 3), counts)
        self.assertTrue(claim_id.startswith(history.HISTORY_CLAIM))
        self.assertEqual(2, self.swift.total('put_object', HISTORY))
