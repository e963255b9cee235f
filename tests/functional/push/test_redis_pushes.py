"""``redis.delay``'s pending pushes, and a dispatcher in this process."""

import threading
import time

from oslo_utils import timeutils

from tests.common import pushes
from tests.fixtures import receiver
from tests.fixtures import redis_store
from zaqar_delay import opts
from zaqar_delay.push import dispatcher
from zaqar_delay.push import runner


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

    def test_a_push_due_during_an_empty_pass_is_taken_at_once(self):
        # A pass reads the time, finds nothing due and ends a moment
        # later: a push that came due meanwhile is taken by the next
        # pass at once, not a poll_interval (10 s) later.
        self.conf.set_override('poll_interval', 10, group=opts.PUSH_GROUP)
        hook = receiver.Receiver()
        self.addCleanup(hook.stop)
        self.driver.subscription_controller.create(
            'q', hook.url, 3600, {}, project=pushes.PROJECT)
        (mid,) = self.post(2)
        due = self.next_due()
        now = [due - 0.001]
        take = self.store.take

        def take_then_go_on(at, limit, lease):
            taken = take(at, limit, lease)
            now[0] = due + 0.001    # the pass ends past the due time
            return taken

        self.patch(self.store, 'take', take_then_go_on)
        # No wake from the store: nothing is posted, and the listener's
        # first wake (on subscribing) would cut the sleep short.
        self.patch(self.store, 'watch', None)
        made = runner.Runner(dispatcher.Dispatcher(
            self.driver, self.control.queue_controller, self.conf,
            clock=lambda: now[0]))
        stop = threading.Event()
        thread = threading.Thread(target=made.run, args=(stop,))
        thread.start()
        try:
            self.assertEqual(1, hook.wait_for(1, 5))
        finally:
            stop.set()
            made.wake.set()
            thread.join(30)
        self.assertEqual(mid, hook.got[0][1]['id'])
