"""``redis.delay``'s pending pushes and a dispatcher in this process."""

import time

from oslo_utils import timeutils
from zaqar.conf import notification
from zaqar.conf import storage as storage_opts

from tests.fixtures import receiver
from tests.fixtures import redis_store
from zaqar_delay import push
from zaqar_delay.push import dispatcher
from zaqar_delay.storage.redis import keys

PROJECT = 'pushes'


class RedisPushesTest(redis_store.DelayTestBase):

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

    def post(self, *delays):
        return self.messages.post('q', [{'ttl': 600, 'body': d, 'delay': d}
                                        for d in delays],
                                  'b2c16e2a-1c2c-4a43-9a7b-3bd3f4b1c8a1',
                                  PROJECT)

    def test_only_delayed_messages_get_a_pending_push(self):
        ids = self.post(0, 5, 9)
        now = timeutils.utcnow_ts()
        pending = self.redis.zrange(keys.PUSHES, 0, -1, withscores=True)
        self.assertEqual([(keys.push(ids[1], 'q', PROJECT).encode(), 5.0),
                          (keys.push(ids[2], 'q', PROJECT).encode(), 9.0)],
                         [(m, s - now) for m, s in pending])

    def test_take_leases_and_done_forgets(self):
        store = self.driver.push_store
        (mid,) = self.post(2)
        now = timeutils.utcnow_ts()
        self.assertEqual([], store.take(now + 1, 10, 30))
        (taken,) = store.take(now + 2, 10, 30)
        self.assertEqual((PROJECT, 'q', mid), taken[:3])
        self.assertEqual(now + 2 + 30, store.next_due())   # leased
        self.assertEqual([], store.take(now + 3, 10, 30))
        self.assertEqual(1, len(store.take(now + 32, 10, 30)))  # lease over
        store.done([taken])
        self.assertIsNone(store.next_due())

    def test_a_subscription_expired_before_due_gets_nothing(self):
        expired, live = receiver.Receiver(), receiver.Receiver()
        self.addCleanup(expired.stop)
        self.addCleanup(live.stop)
        subscriptions = self.driver.subscription_controller
        subscriptions.create('q', expired.url, 1, {}, project=PROJECT)
        subscriptions.create('q', live.url, 3600, {}, project=PROJECT)
        (mid,) = self.post(2)
        due = timeutils.utcnow_ts() + 2
        time.sleep(1.5)         # redis drops the 1 s subscription
        pusher = dispatcher.Dispatcher(self.driver, self.control
                                       .queue_controller, self.conf,
                                       clock=lambda: due)
        self.assertEqual(1, pusher.run_once())
        self.assertEqual(1, live.wait_for(1, 10))
        self.assertEqual(mid, live.got[0][1]['id'])
        self.assertEqual([], expired.got)
