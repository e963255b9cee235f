"""How ``swift.delay`` claims take ready messages: under their shard's
lease, oldest first, passing over what other claims hold."""

import itertools
import threading
from unittest import mock

from oslo_utils import timeutils

from tests.common import behaviour
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import taker

PROJECT = behaviour.PROJECT
LEASES = 'zaqar_delay_lease'


class SwiftClaimTakingTest(behaviour.Helpers, swift_store.DelayTestBase):

    def make_drivers(self, conf):
        return swift_store.counting(conf)

    def setUp(self):
        super().setUp()
        self.swift = self.driver.connection
        self.ids = self.post(*[0] * 30)
        self.index = self.messages.index(self.queue, PROJECT)
        self.now = timeutils.utcnow_ts()

    def test_a_claim_passes_over_a_message_another_claim_holds(self):
        self.assertTrue(self.index.lock(self.ids[0], 'another-claim',
                                        self.now + 600, self.now))
        _, first = self.claim(limit=2)
        self.assertEqual(self.ids[1:3], first)
        self.assertEqual({(PROJECT, self.queue)},
                         set(self.claims._taker._contended))

    def test_a_claim_takes_one_lease_a_shard(self):
        # The lease containers made first.
        self.index.unlease('made', self.index.lease('made', 'me', self.now))
        self.swift.clear()
        _, got = self.claim(limit=10)
        self.assertEqual(self.ids[:10], got)
        # Each lease is one door written, and deleted once the locks are.
        shards = {idx.shard(mid) for mid in got}
        self.assertEqual(len(shards), self.swift.total('put_object', LEASES))
        self.assertEqual(len(shards),
                         self.swift.total('delete_object', LEASES))

    def test_a_shard_another_taker_holds_is_passed_over(self):
        shard = idx.shard(self.ids[0])
        door = self.index.lease(shard, 'another-taker', self.now)
        self.assertIsNotNone(door)
        _, got = self.claim(limit=30)
        self.assertEqual([mid for mid in self.ids
                          if idx.shard(mid) != shard], got)
        self.index.unlease(shard, door)
        _, rest = self.claim(limit=30)
        self.assertEqual([mid for mid in self.ids
                          if idx.shard(mid) == shard], rest)

    def test_a_claimer_that_met_none_takes_the_oldest_first(self):
        self.assertTrue(self.index.lock(self.ids[0], 'another-claim',
                                        self.now + 600, self.now))
        _, first = self.claim(limit=2)
        # Another process's claims (its own controller) met nothing.
        self.index.unlock(self.ids[0], self.index.lock_of(self.ids[0]))
        _, other = swift_store.drivers(self.conf)
        _, got = other.claim_controller.create(
            self.queue, {'ttl': 3000, 'grace': 60}, project=PROJECT,
            limit=2)
        rest = [mid for mid in self.ids if mid not in first]
        self.assertEqual(rest[:2], [m['id'] for m in got])

    def test_a_claimer_that_met_another_tries_shards_in_a_random_order(self):
        self.assertTrue(self.index.lock(self.ids[0], 'another-claim',
                                        self.now + 600, self.now))
        self.claim(limit=1)
        with mock.patch.object(taker.random, 'shuffle') as shuffle:
            self.claim(limit=1)
        shuffle.assert_called_once()

    def test_the_random_order_ends_when_claims_stop_meeting_others(self):
        self.assertTrue(self.index.lock(self.ids[0], 'another-claim',
                                        self.now + 600, self.now))
        with mock.patch.object(taker, 'CONTENDED_SECONDS', 0):
            self.claim(limit=1)
        with mock.patch.object(taker.random, 'shuffle') as shuffle:
            _, got = self.claim(limit=1)
        shuffle.assert_not_called()
        self.assertEqual(self.ids[2:3], got)


class SwiftClaimShardsTest(behaviour.Helpers, swift_store.DelayTestBase):

    def test_the_shards_a_claim_needs_are_taken_at_once(self):
        # Five messages posted in five seconds: five shards.
        seconds = itertools.count(0x661198e1e00000, 1 << 20)
        with mock.patch.object(idtime, 'new', lambda: '%016x-%016x' % (
                next(seconds), 0)):
            ids = [self.post(0)[0] for _ in range(5)]
        self.assertEqual(5, len({idx.shard(mid) for mid in ids}))
        # Each shard's taking waits for the four others: a claim that
        # took them one after another would break the barrier.
        meeting = threading.Barrier(5, timeout=30)
        take_shard = taker.Taker._take_shard

        def meeting_first(controller, *args):
            meeting.wait()
            return take_shard(controller, *args)
        with mock.patch.object(taker.Taker, '_take_shard',
                               meeting_first):
            _, got = self.claim(limit=5)
        self.assertEqual(ids, got)
