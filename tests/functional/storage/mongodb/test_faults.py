"""``mongodb.delay`` operations that take two requests, with the second
failing: nothing acknowledged is lost, nothing stays hidden."""

import datetime

import fixtures

from oslo_utils import timeutils
from pymongo import errors as mongo_errors
from zaqar.storage import errors
from zaqar.storage.mongodb import utils

from tests.common import behaviour
from tests.fixtures import faults
from tests.fixtures import mongodb_store

PROJECT = behaviour.PROJECT


class MongoFaultTest(behaviour.Helpers, mongodb_store.DelayTestBase):

    def test_a_dead_letter_copy_that_fails_loses_no_message(self):
        dlq = mongodb_store.other_partition(self, self.queue, PROJECT)
        self.queues.create(dlq, project=PROJECT)
        self.queues.set_metadata(self.queue, {
            '_max_claim_count': 1, '_dead_letter_queue': dlq},
            project=PROJECT)
        (mid,) = self.post(0)
        self.assertEqual([mid], self.claim(ttl=60)[1])
        timeutils.advance_time_seconds(70)
        faults.Fault(self, self.messages.collection(dlq, PROJECT),
                     'insert_one', mongo_errors.AutoReconnect('lost'))
        self.assertEqual([], self.claim(ttl=60)[1])   # copy failed once
        timeutils.advance_time_seconds(70)
        self.assertEqual([], self.claim(ttl=60)[1])   # moved this time
        self.assertEqual([mid], self.list_ids(queue=dlq)[0])

    def test_a_renewal_never_leaves_a_claim_outliving_its_message(self):
        (mid,) = self.post(0)
        claim_id, _ = self.claim(ttl=60)
        collection = self.messages.collection(self.queue, PROJECT)
        # The store goes away after the renewal's first request.
        faults.Fault(self, collection, 'update_many',
                     mongo_errors.AutoReconnect('lost'), nth=2, lasting=True)
        try:
            self.claims.update(self.queue, claim_id,
                               {'ttl': 7200, 'grace': 0}, project=PROJECT)
        except Exception:
            pass    # a renewal that failed may or may not have happened
        doc = collection.find_one({'_id': utils.to_oid(mid)})
        claim_ends = datetime.datetime.fromtimestamp(
            doc['c']['e'], tz=datetime.timezone.utc).replace(tzinfo=None)
        # Mongo's TTL monitor removes the message at ``e``.
        self.assertGreaterEqual(doc['e'], claim_ends)

    def documents(self):
        collection = self.messages.collection(self.queue, PROJECT)
        return collection.count_documents(
            {'p_q': utils.scope_queue_name(self.queue, PROJECT)})

    def test_a_post_cut_short_leaves_nothing_once_its_deadline_passed(self):
        collection = self.messages.collection(self.queue, PROJECT)
        # The post's state update is lost: its documents were inserted.
        faults.Fault(self, collection, 'update_many',
                     mongo_errors.AutoReconnect('lost'))
        self.assertRaises(Exception, self.post, 0, 60)
        self.assertEqual(2, self.documents())
        self.assertEqual([], self.claim()[1])       # never acknowledged
        self.assertEqual(0, self.stats_of(self.queue, PROJECT)['total'])
        timeutils.advance_time_seconds(121)
        self.assertEqual([], self.claim()[1])
        self.assertEqual(0, self.documents())

    def test_a_post_taken_for_dead_fails_and_leaves_nothing(self):
        collection = self.messages.collection(self.queue, PROJECT)
        update = collection.update_many
        stalled = []

        def stall_then_update(*args, **kwargs):
            if not stalled:     # the post's state update, late
                stalled.append(True)
                timeutils.advance_time_seconds(121)
                self.claim()    # promotion takes the post for dead
            return update(*args, **kwargs)

        self.useFixture(fixtures.MockPatchObject(
            collection, 'update_many', stall_then_update))
        self.assertRaises(errors.MessageConflict, self.post, 0)
        self.assertEqual(0, self.documents())
