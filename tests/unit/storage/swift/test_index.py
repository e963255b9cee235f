import uuid

import testtools

from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks


class ClaimExpiryNamesTest(testtools.TestCase):

    def test_a_claims_entry_reads_back(self):
        name = idx.claim_ends(1790000000, 'a951c595-357b-4460-9601')
        self.assertEqual((1790000000, 'a951c595-357b-4460-9601'),
                         idx.claim_ended(name))

    def test_entries_of_one_message_are_not_a_claims(self):
        mid = idtime.new()
        self.assertIsNone(idx.claim_ended(idx.held_until(1790000000, mid)))
        self.assertIsNone(idx.claim_ended(
            idx.legacy_held_until(1790000000, 1790000100, mid, 5)))
        self.assertEqual((1790000000, mid),
                         idx.unheld(idx.held_until(1790000000, mid)))

    def test_every_kind_sorts_by_claim_expiry_before_until(self):
        mid, now = idtime.new(), 1790000000
        for name in (idx.claim_ends(now, 'c'), idx.held_until(now, mid),
                     idx.legacy_held_until(now, now + 9, mid)):
            self.assertLess(name, idx.until(now))
            self.assertGreater(name, idx.until(now - 1))

    def test_holdings_read_back(self):
        held = {idtime.new(): (1790000100, 0), idtime.new(): (1790000200, 30)}
        self.assertEqual(held, idx.held_of(idx.holdings(held)))


class DueNamesTest(testtools.TestCase):

    def test_a_due_name_keeps_the_millisecond(self):
        name = idx.timed(1790000001.25, 1790000600, 'm')
        self.assertEqual('1790000001250.1790000600.m', name)
        self.assertEqual((1790000001.25, 1790000600, 'm'), idx.untimed(name))
        self.assertEqual(1790000001.007, idx.untimed(
            idx.timed(1790000001.007, 1790000600, 'm'))[0])

    def test_a_whole_second_name_of_earlier_versions_reads_as_seconds(self):
        self.assertEqual((1790000001, 1790000600, 'm.q.p'),
                         idx.untimed('1790000001.1790000600.m.q.p'))

    def test_old_and_new_names_sort_by_due_time_and_list_up_to_now(self):
        dues = [1790000000.999, 1790000001, 1790000001.0, 1790000001.001,
                1790000001.5, 1790000001.999, 1790000002, 1790000002.001]
        names = [('%010d.1790000600.m' % due) if isinstance(due, int)
                 else idx.timed(due, 1790000600, 'm') for due in dues]
        self.assertEqual(names, sorted(names))
        for now in (1790000000.999, 1790000001, 1790000001.0004,
                    1790000001.5, 1790000001.999, 1790000001.9999,
                    1790000002):
            edge = idx.due_until(now)
            self.assertEqual(
                [due <= int(now * 1000) / 1000 for due in dues],
                [name < edge for name in names], now)

    def test_the_names_a_due_entry_may_have(self):
        mid = idtime.new()
        self.assertEqual([idx.timed(1790000000.25, 1790000100, mid)],
                         idx.due_names(1790000000.25, 1790000100, mid))
        # A whole-second due time: earlier versions named it so.
        self.assertEqual([idx.timed(1790000000, 1790000100, mid),
                          idx.legacy_timed(1790000000, 1790000100, mid)],
                         idx.due_names(1790000000, 1790000100, mid))

    def test_holds_are_known_by_their_prefix(self):
        index = idx.Index(None, 'q', 'p')
        for holder in (idx.DELETING, idx.RESCHEDULING, idx.MOVING):
            self.assertTrue(index.on_hold(locks.Lock(holder + 'x', 9)))
        self.assertFalse(index.on_hold(locks.Lock(str(uuid.uuid4()), 9)))


class ShardTest(testtools.TestCase):

    def test_ids_of_one_second_share_a_shard(self):
        first = '%016x-%s' % (0x661198e1e00000, 'a' * 16)
        last = '%016x-%s' % (0x661198e1efffff, 'b' * 16)
        after = '%016x-%s' % (0x661198e1f00000, 'c' * 16)
        self.assertEqual(idx.shard(first), idx.shard(last))
        self.assertNotEqual(idx.shard(last), idx.shard(after))
        self.assertEqual('t00661198e1e', idx.shard(first))

    def test_other_ids_fall_in_one_of_a_few_hashed_shards(self):
        ids = [str(uuid.uuid4()) for _ in range(200)]
        shards = {idx.shard(mid) for mid in ids}
        self.assertLessEqual(len(shards), idx.SHARDS)
        self.assertTrue(all(s.startswith('h') for s in shards))
        self.assertEqual(idx.shard(ids[0]), idx.shard(ids[0]))
