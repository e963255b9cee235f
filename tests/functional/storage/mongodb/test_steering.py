"""Due times on every message, reschedule and move on ``mongodb.delay``
and ``mongodb.fifo.delay``, with Zaqar's clock frozen on a millisecond
(``tests/common/waiting_control.py`` runs them through a zaqar-server).
"""

import datetime

from oslo_utils import timeutils
from zaqar.conf import notification
from zaqar.conf import storage as storage_opts

from tests.common import behaviour
from tests.fixtures import mongodb_store
from zaqar_delay import delay
from zaqar_delay import push
from zaqar_delay.storage import message
from zaqar_delay.storage.mongodb import driver

PROJECT = behaviour.PROJECT


class SteeringTest(behaviour.Helpers, mongodb_store.DelayTestBase):

    def make_drivers(self, conf):
        # With zaqar-delay's notifier stage: pending pushes are kept.
        conf.register_opts(storage_opts.ALL_OPTS,
                           group=storage_opts.GROUP_NAME)
        conf.register_opts(notification.ALL_OPTS,
                           group=notification.GROUP_NAME)
        conf.set_override('message_pipeline', [push.STAGE],
                          group=storage_opts.GROUP_NAME)
        return super().make_drivers(conf)

    def setUp(self):
        super().setUp()
        self.now = timeutils.utcnow_ts(microsecond=True)

    def at(self, seconds):
        """Zaqar's clock ``seconds`` after the frozen start."""
        timeutils.set_time_override(datetime.datetime.fromtimestamp(
            self.now + seconds, tz=datetime.timezone.utc).replace(
                tzinfo=None))

    # every message with its due time

    def test_every_message_returned_has_its_due_time(self):
        ready, waiting = self.post(0, 30)
        now = round(self.now, 3)
        got = self.messages.get(self.queue, waiting, project=PROJECT)
        self.assertIsInstance(got, message.Message)
        self.assertEqual(now + 30, got.due)
        self.assertEqual({ready: now, waiting: now + 30}, {
            m['id']: m.due for m in self.messages.bulk_get(
                self.queue, [ready, waiting], project=PROJECT)})
        page = next(self.messages.list(self.queue, project=PROJECT,
                                       include_delayed=True, echo=True))
        self.assertEqual([now, now + 30], [m.due for m in page])
        claim_id, (claimed,) = self.claims.create(
            self.queue, {'ttl': 60, 'grace': 0}, project=PROJECT)
        self.assertEqual(now, claimed.due)
        _, (read,) = self.claims.get(self.queue, claim_id, project=PROJECT)
        self.assertEqual((ready, now), (read['id'], read.due))
        self.assertEqual(set(read), set(claimed))   # upstream's keys
        self.at(30)
        (popped,) = self.messages.pop(self.queue, 1, project=PROJECT)
        self.assertEqual((waiting, now + 30), (popped['id'], popped.due))

    def test_a_due_time_on_post_is_kept_to_the_ms_rounded_up(self):
        asked = self.now + 12.3454
        (mid,) = self.messages.post(self.queue, [
            {'ttl': 60, 'body': 1, delay.DUE: asked}], behaviour.CLIENT,
            project=PROJECT)
        due = delay.due_at(asked, 0)    # not at 12.345 s: early
        stored = self.messages.collection(self.queue, PROJECT).find_one()
        self.assertEqual(due, stored['d'])
        self.at(due - self.now - 0.001)
        self.assertEqual([], self.claim()[1])
        self.at(due - self.now)
        self.assertEqual([mid], self.claim()[1])
        self.assertEqual(due, self.messages.get(self.queue, mid,
                                                project=PROJECT).due)

    def test_a_due_time_past_is_due_at_the_post(self):
        (mid,) = self.messages.post(self.queue, [
            {'ttl': 60, 'body': 1, delay.DUE: self.now - 100}],
            behaviour.CLIENT, project=PROJECT)
        self.assertEqual(delay.floor_ms(self.now), self.messages.get(
            self.queue, mid, project=PROJECT).due)
        self.assertEqual([mid], self.claim()[1])


class FIFOSteeringTest(SteeringTest):
    data_driver = driver.FIFODataDriver
