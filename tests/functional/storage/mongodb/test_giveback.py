"""The requests of ``mongodb.delay``'s give-backs (storage/mongodb/
giveback.py): counting those given back with a retry backoff costs no
request on a queue without ``_retry_backoff``."""

import fixtures
from oslo_utils import timeutils
from zaqar.storage.mongodb import utils

from tests.common import behaviour
from tests.common import recording
from tests.fixtures import mongodb_store
from zaqar_delay import retry
from zaqar_delay.storage.mongodb import counters
from zaqar_delay.storage.mongodb import giveback
from zaqar_delay.storage.mongodb import queries

PROJECT = behaviour.PROJECT


class GiveBackRequestsTest(behaviour.Helpers, mongodb_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.added = []
        add = counters.add
        self.useFixture(fixtures.MonkeyPatch(
            'zaqar_delay.storage.mongodb.counters.add',
            lambda driver, counted: (self.added.append(counted),
                                     add(driver, counted))))

    def recording(self):
        return recording.Recording(
            self.messages.collection(self.queue, PROJECT))

    def expire_a_claim_of_two(self, backoff):
        if backoff:
            self.queues.set_metadata(self.queue, {retry.KEY: {'initial': 5}},
                                     project=PROJECT)
        self.post(0, 0)
        self.claim(ttl=60)
        timeutils.advance_time_seconds(61)
        self.added = []
        collection = self.recording()
        giveback.expired(self.driver, collection,
                         utils.scope_queue_name(self.queue, PROJECT),
                         timeutils.utcnow_ts(), 10)
        return collection.calls

    def test_expired_claims_without_backoff_one_read_one_update(self):
        self.assertEqual(['find', 'update_many'],
                         self.expire_a_claim_of_two(backoff=False))
        self.assertEqual([], self.added)
        self.assertEqual(2, len(self.claim()[1]))

    def test_expired_claims_with_backoff_are_counted(self):
        self.assertEqual(['find', 'update_many'],
                         self.expire_a_claim_of_two(backoff=True))
        self.assertEqual([{'expired_backoff': 2}], self.added)
        # Given back already: found again, nothing more is counted.
        collection = self.recording()
        giveback.expired(self.driver, collection,
                         utils.scope_queue_name(self.queue, PROJECT),
                         timeutils.utcnow_ts(), 10)
        self.assertEqual(['find'], collection.calls)
        self.assertEqual([{'expired_backoff': 2}], self.added)
        self.assertEqual([], self.claim()[1])

    def test_release_without_backoff_is_one_update(self):
        self.post(0, 0)
        claim_id, _ = self.claim()
        self.added = []
        collection = self.recording()
        held = {'p_q': utils.scope_queue_name(self.queue, PROJECT),
                'c.id': utils.to_oid(claim_id), 's': queries.CLAIMED}
        giveback.released(self.driver, collection, held,
                          timeutils.utcnow_ts())
        self.assertEqual(['update_many'], collection.calls)
        self.assertEqual([], self.added)
        self.assertEqual(2, len(self.claim()[1]))
