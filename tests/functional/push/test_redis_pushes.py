"""``redis.delay``'s pending pushes, and a dispatcher in this process."""

import time

from oslo_utils import timeutils

from tests.common import pushes
from tests.fixtures import receiver
from tests.fixtures import redis_store
from zaqar_delay.push import dispatcher


class RedisPushesTest(pushes.PendingPushes, redis_store.DelayTestBase):

    def test_a_subscription_expired_before_due_gets_nothing(self):
        expired, live = receiver.Receiver(), receiver.Receiver()
        self.addCleanup(expired.stop)
        self.addCleanup(live.stop)
        subscriptions = self.driver.subscription_controller
        subscriptions.create('q', expired.url, 1, {}, project=pushes.PROJECT)
        subscriptions.create('q', live.url, 3600, {}, project=pushes.PROJECT)
        (mid,) = self.post(2)
        due = timeutils.utcnow_ts(True) + 2
        time.sleep(1.5)         # redis drops the 1 s subscription
        pusher = dispatcher.Dispatcher(self.driver, self.control
                                       .queue_controller, self.conf,
                                       clock=lambda: due)
        self.assertEqual(1, pusher.run_once())
        self.assertEqual(1, live.wait_for(1, 10))
        self.assertEqual(mid, live.got[0][1]['id'])
        self.assertEqual([], expired.got)

    def test_a_push_taken_before_a_reschedule_waits_for_the_new_time(self):
        hook = receiver.Receiver()
        self.addCleanup(hook.stop)
        self.driver.subscription_controller.create(
            'q', hook.url, 3600, {}, project=pushes.PROJECT)
        (mid,) = self.post(0)
        now = timeutils.utcnow_ts(True)
        (taken,) = self.store.take(now, 10, 30)
        # Rescheduled while a dispatcher holds its push.
        self.messages.reschedule('q', mid, project=pushes.PROJECT, delay=60)
        pusher = dispatcher.Dispatcher(self.driver, self.control
                                       .queue_controller, self.conf)
        pusher._held = 1
        pusher._push('q', pushes.PROJECT, [taken], time.monotonic() + 30)
        self.assertEqual((0, []), (pusher.held, hook.got))
        self.assertEqual([], self.store.take(now + 59, 10, 30))
        (again,) = self.store.take(now + 60, 10, 30)
        self.assertEqual(mid, again.message_id)
