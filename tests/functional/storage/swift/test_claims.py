"""How ``swift.delay`` claims pick ready names when other claims are
taking some."""

from unittest import mock

import fixtures
from oslo_utils import timeutils

from tests.common import behaviour
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import claims
from zaqar_delay.storage.swift import index as idx

PROJECT = behaviour.PROJECT


class SwiftClaimSpreadTest(behaviour.Helpers, swift_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.ids = self.post(*[0] * 30)
        # Another claim is taking the oldest message: its lock is written
        # and its ready entry not yet deleted.
        now = timeutils.utcnow_ts()
        self.index = self.messages._index(self.queue, PROJECT)
        self.assertTrue(self.index.lock(self.ids[0], 'another-claim',
                                        now + 600, now))
        names = idx.Index.names
        self.listed = []

        def recording(index, kind, **kwargs):
            if kind == idx.READY:
                self.listed.append(kwargs.get('limit'))
            return names(index, kind, **kwargs)
        self.useFixture(fixtures.MockPatchObject(idx.Index, 'names',
                                                 recording))

    def test_a_claim_that_met_a_taken_name_spreads_the_next_ones(self):
        _, first = self.claim(limit=2)
        self.assertEqual(2, len(first))
        self.assertNotIn(self.ids[0], first)
        self.assertEqual([4], self.listed)
        _, second = self.claim(limit=2)
        self.assertEqual(2, len(second))
        self.assertFalse(set(first) & set(second))
        self.assertEqual([4, 2 * claims.SPREAD], self.listed)

    def test_a_claimer_that_met_none_takes_the_oldest_first(self):
        _, first = self.claim(limit=2)
        self.assertEqual({(PROJECT, self.queue)}, set(self.claims._contended))
        # The other claim is done with the oldest message; another
        # process's claims (its own controller) met nothing.
        self.index.unlock(self.ids[0], self.index.lock_of(self.ids[0]))
        _, other = swift_store.drivers(self.conf)
        _, got = other.claim_controller.create(
            self.queue, {'ttl': 3000, 'grace': 60}, project=PROJECT,
            limit=2)
        self.assertEqual([4, 4], self.listed)
        rest = [mid for mid in self.ids if mid not in first]
        self.assertEqual(rest[:2], [m['id'] for m in got])

    def test_the_spread_ends_when_claims_stop_meeting_taken_names(self):
        with mock.patch.object(claims, 'CONTENDED_SECONDS', 0):
            self.claim(limit=2)
        self.claim(limit=2)
        self.assertEqual([4, 4], self.listed)
