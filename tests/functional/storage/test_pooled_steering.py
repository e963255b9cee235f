"""A move between two stores (two pools): held, copied, deleted; a move
that died part way is finished by its repeat, never doubled."""

from unittest import mock

from zaqar.storage import errors
from zaqar.storage.redis import driver as upstream_driver

from tests.common import behaviour
from tests.fixtures import redis_store
from tests.fixtures import services
from tests.fixtures import storage
from zaqar_delay.storage import pooled_steering
from zaqar_delay.storage.redis import driver as delay_driver

PROJECT = behaviour.PROJECT


class MoveAcrossTest(behaviour.Helpers, redis_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        # The other pool: another database of the same redis-server.
        self.control_far, self.far = storage.drivers_of_text(
            redis_store.DRIVER_CONF.format(
                pooling=False, url=services.redis_server().url, dbid=7),
            upstream_driver.ControlDriver, delay_driver.DataDriver)
        self.far.queue_controller.create('far', project=PROJECT)
        self.addCleanup(self.far.connection.flushdb)

    def move(self, mid, **when):
        return pooled_steering.move_across(
            self.messages, self.far.message_controller, self.queue, 'far',
            PROJECT, mid, when)

    def far_ids(self):
        page = next(self.far.message_controller.list(
            'far', project=PROJECT, echo=True, include_delayed=True))
        return [m['id'] for m in page]

    def test_moved_held_and_gone(self):
        held, moved, _ = self.post(0, 0, 30)
        self.assertEqual([held], self.claim(limit=1)[1])
        old, new = self.move(moved)
        self.assertEqual(moved, old)
        self.assertEqual([new], self.far_ids())
        self.assertRaises(errors.MessageDoesNotExist, self.messages.get,
                          self.queue, moved, project=PROJECT)
        self.assertIsNone(self.move(held))      # a live claim holds it
        self.assertIsNone(self.move('unknown'))

    def test_a_move_that_died_after_the_copy_is_finished_once(self):
        (mid,) = self.post(0)
        died = mock.patch.object(self.messages, 'delete',
                                 side_effect=ConnectionError('died'))
        with died:
            self.assertRaises(ConnectionError, self.move, mid)
        # Held back from claims meanwhile, for HOLD seconds at most.
        self.assertEqual([], self.claim()[1])
        (copy,) = self.far_ids()
        self.assertEqual((mid, copy), self.move(mid))
        self.assertEqual([copy], self.far_ids())
        self.assertRaises(errors.MessageDoesNotExist, self.messages.get,
                          self.queue, mid, project=PROJECT)

    def test_a_move_that_died_after_the_hold_gives_it_back_in_time(self):
        (mid,) = self.post(0)
        died = mock.patch.object(self.far.message_controller, 'post',
                                 side_effect=ConnectionError('died'))
        with died:
            self.assertRaises(ConnectionError, self.move, mid)
        self.assertEqual([], self.far_ids())
        behaviour.timeutils.advance_time_seconds(pooled_steering.HOLD)
        self.assertEqual([mid], self.claim()[1])
