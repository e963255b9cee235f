"""What a ``swift.delay`` claim's ``claim_expiry`` entry gives back when
the claim ends, and what entries of one message (the earlier layout,
which ``migrate`` writes) still do."""

import time
from unittest import mock

from oslo_utils import timeutils
from zaqar.storage import errors

from tests.common import behaviour
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import index as idx

PROJECT = behaviour.PROJECT


class SwiftClaimExpiryTest(behaviour.Helpers, swift_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.index = self.messages.index(self.queue, PROJECT)

    def entries(self):
        return self.index.names(idx.CLAIM_EXPIRY)

    def test_a_claim_writes_one_entry_naming_its_messages(self):
        ids = self.post(0, 0, 0)
        claim_id, got = self.claim(ttl=30)
        self.assertEqual(sorted(ids), sorted(got))
        name = idx.claim_ends(timeutils.utcnow_ts() + 30, claim_id)
        self.assertEqual([name], self.entries())
        held = idx.held_of(self.index.read(idx.CLAIM_EXPIRY, name))
        self.assertEqual(set(ids), set(held))
        for expires, wait in held.values():
            self.assertGreaterEqual(expires, timeutils.utcnow_ts() + 30 + 60)
            self.assertEqual(0, wait)

    def test_at_its_end_what_was_deleted_stays_gone(self):
        ids = self.post(0, 0, 0)
        claim_id, _ = self.claim(ttl=30)
        self.messages.delete(self.queue, ids[1], PROJECT, claim=claim_id)
        self.assertEqual(1, len(self.entries()))    # a delete leaves it
        timeutils.advance_time_seconds(31)
        second, again = self.claim(ttl=600)
        self.assertEqual([ids[0], ids[2]], again)
        self.assertEqual([idx.claim_ends(timeutils.utcnow_ts() + 600,
                                         second)], self.entries())
        self.assertNotIn(ids[1], self.index.names(idx.READY))

    def test_a_release_deletes_the_entry_and_gives_each_message_once(self):
        ids = self.post(0, 0)
        claim_id, _ = self.claim(ttl=30)
        self.claims.delete(self.queue, claim_id, project=PROJECT)
        self.assertEqual([], self.entries())
        second, got = self.claim(ttl=600)
        self.assertEqual(ids, got)
        timeutils.advance_time_seconds(31)      # the first claim's end
        self.assertEqual([], self.claim()[1])
        self.assertEqual([idx.claim_ends(timeutils.utcnow_ts() - 31 + 600,
                                         second)], self.entries())

    def test_a_renewal_moves_the_entry(self):
        (mid,) = self.post(0)
        claim_id, _ = self.claim(ttl=30)
        self.claims.update(self.queue, claim_id, {'ttl': 100, 'grace': 0},
                           project=PROJECT)
        now = timeutils.utcnow_ts()
        self.assertEqual([idx.claim_ends(now + 100, claim_id)],
                         self.entries())
        timeutils.advance_time_seconds(31)
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_seconds(70)
        self.assertEqual([mid], self.claim()[1])

    def test_an_entry_of_one_message_gives_back_only_what_is_there(self):
        kept, deleted = self.post(0, 0)
        now = timeutils.utcnow_ts()
        for mid in (kept, deleted):
            # As ``migrate`` writes a message a live claim holds.
            self.assertTrue(self.index.lock(mid, 'old-claim', now + 30, now))
            self.index.put(idx.CLAIM_EXPIRY, idx.held_until(now + 30, mid),
                           now + 3600, idx.holding(now + 3600, 0))
            self.index.delete(idx.READY, mid)
        self.messages.delete(self.queue, deleted, PROJECT,
                             claim='old-claim')
        self.assertRaises(errors.MessageDoesNotExist, self.messages.get,
                          self.queue, deleted, PROJECT)
        timeutils.advance_time_seconds(31)
        self.assertEqual([kept], self.claim()[1])
        self.assertEqual([], self.index.names(idx.READY))

    def test_a_dead_deletes_hold_does_not_hide_a_message_past_it(self):
        # A delete without a claim that took the lock of a message whose
        # claim had ended, and died before deleting it: the claim's
        # entry, read while the hold lives, gives the message back once
        # the hold ends.
        (mid,) = self.post(0)
        self.claim(ttl=30)
        timeutils.advance_time_seconds(31)
        now = timeutils.utcnow_ts()
        held = self.messages._hold(self.queue, PROJECT, mid, now)
        self.assertIsNotNone(held)
        self.assertEqual([], self.claim()[1])
        self.assertEqual([], self.entries())
        timeutils.advance_time_seconds(held.expires - now + 1)
        self.assertEqual([mid], self.claim()[1])

    def test_a_claimer_too_slow_for_its_claim_hides_nothing(self):
        # The claim's entry is read once the claim has ended, before the
        # claimer writes the message back, claimed: the entry passes
        # over the message; the claimer then must not delete its ready
        # entry.
        (mid,) = self.post(0)
        write = self.claims._taker.write

        def slow(taking, taken):
            deadline = time.monotonic() + 30
            while not self.entries() and time.monotonic() < deadline:
                time.sleep(0.05)    # the entry, written meanwhile
            timeutils.advance_time_seconds(61)
            self.messages.ready_view(self.queue, PROJECT)
            self.assertEqual([], self.entries())
            write(taking, taken)

        with mock.patch.object(self.claims._taker, 'write', slow):
            self.assertEqual([mid], self.claim(ttl=60)[1])
        self.assertEqual([mid], self.claim()[1])
