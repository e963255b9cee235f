"""``redis.delay`` operations of several requests, with the clock moving
between them."""

from unittest import mock

from oslo_utils import timeutils

from tests.common import behaviour
from tests.fixtures import redis_store

PROJECT = behaviour.PROJECT


class RedisFaultTest(behaviour.Helpers, redis_store.DelayTestBase):

    def test_a_pop_holds_its_messages_until_it_has_deleted_them(self):
        (mid,) = self.post(0)
        taken_meanwhile = []
        delete = self.messages.bulk_delete

        def slow_delete(*args, **kwargs):
            timeutils.advance_time_seconds(2)   # the pop is slow
            taken_meanwhile.extend(self.claim()[1])
            return delete(*args, **kwargs)

        with mock.patch.object(self.messages, 'bulk_delete', slow_delete):
            popped = self.messages.pop(self.queue, 10, project=PROJECT)
        self.assertEqual([mid], [msg['id'] for msg in popped])
        self.assertEqual([], taken_meanwhile)
        self.assertEqual(0, self.stats_of(self.queue, PROJECT)['total'])
