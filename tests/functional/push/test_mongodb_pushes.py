"""``mongodb.delay``'s pending pushes: take, lease, done, and their plans."""

from oslo_utils import timeutils
from zaqar.conf import notification
from zaqar.conf import storage as storage_opts

from tests.fixtures import mongodb_store
from zaqar_delay import push
from zaqar_delay.storage.mongodb import queries

PROJECT = 'pushes'
CLIENT = 'b2c16e2a-1c2c-4a43-9a7b-3bd3f4b1c8a1'


def _index(stage):
    while stage:
        if 'indexName' in stage:
            return stage['indexName']
        stage = stage.get('inputStage')
    return 'COLLSCAN'


class MongoPushesTest(mongodb_store.DelayTestBase):

    def make_drivers(self, conf):
        conf.register_opts(storage_opts.ALL_OPTS,
                           group=storage_opts.GROUP_NAME)
        conf.register_opts(notification.ALL_OPTS,
                           group=notification.GROUP_NAME)
        conf.set_override('message_pipeline', [push.STAGE],
                          group=storage_opts.GROUP_NAME)
        return super().make_drivers(conf)

    def setUp(self):
        super().setUp()
        self.queues.create('q', project=PROJECT)
        self.queues.set_metadata('q', {'_default_message_delay': 60},
                                 project=PROJECT)
        self.messages = self.driver.message_controller
        self.collection = self.messages._collection('q', PROJECT)

    def post(self, *delays):
        return self.messages.post('q', [{'ttl': 600 + d, 'body': d,
                                         'delay': d}
                                        for d in delays], CLIENT, PROJECT)

    def test_only_delayed_messages_get_a_pending_push(self):
        ids = self.post(0, 5, 9)
        now = timeutils.utcnow_ts()
        pending = {str(doc['_id']): doc['pa'] - now for doc in
                   self.collection.find({'pa': {'$gte': 0}})}
        self.assertEqual({ids[1]: 5, ids[2]: 9}, pending)

    def test_take_leases_and_done_forgets(self):
        store = self.driver.push_store
        (mid,) = self.post(2)
        now = timeutils.utcnow_ts()
        self.assertEqual([], store.take(now + 1, 10, 30))
        (taken,) = store.take(now + 2, 10, 30)
        self.assertEqual((PROJECT, 'q', mid), taken[:3])
        self.assertEqual(now + 2 + 30, store.next_due())   # leased
        self.assertEqual([], store.take(now + 3, 10, 30))
        (again,) = store.take(now + 32, 10, 30)            # lease over
        store.done([taken])         # an old lease: not this one's to end
        self.assertEqual(now + 32 + 30, store.next_due())
        store.done([again])
        self.assertIsNone(store.next_due())
        self.assertEqual(mid, self.messages.get('q', mid, PROJECT)['id'])

    def test_a_deleted_message_takes_its_push_along(self):
        (mid,) = self.post(2)
        self.messages.delete('q', mid, PROJECT)
        self.assertIsNone(self.driver.push_store.next_due())

    def test_taking_reads_only_the_due_pushes(self):
        self.post(*[600] * 500)
        self.post(*[1] * 5)
        now = timeutils.utcnow_ts() + 1
        plan = queries.find(self.collection, queries.push_due(now),
                            limit=1).explain()
        self.assertEqual('delay_push',
                         _index(plan['queryPlanner']['winningPlan']))
        self.assertLessEqual(plan['executionStats']['totalKeysExamined'],
                             6)
        self.assertEqual(5, len(self.driver.push_store.take(now, 10, 30)))
