"""Posts on ``redis.delay`` planned with the metadata post.lua checks."""

import msgpack
import redis

from tests.common import behaviour
from tests.fixtures import redis_store
from zaqar_delay import errors
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import metadata
from zaqar_delay.storage.redis import readies
from zaqar_delay.storage.redis import waiting

QUEUE = 'metadata.queue.with.dots'


class PostMetadataTest(redis_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.queues.create(QUEUE, project=behaviour.PROJECT)
        self.messages = self.driver.message_controller
        self.index = keys.index(QUEUE, behaviour.PROJECT)

    def post(self, body):
        return self.messages.post(QUEUE, [{'ttl': 600, 'body': body}],
                                  behaviour.CLIENT, behaviour.PROJECT)

    def test_the_queues_here_are_checked_by_the_post_script(self):
        self.assertTrue(metadata.same_database(
            self.control.queue_controller, self.driver.connection))
        self.assertIsNotNone(self.messages._metadata)

    def test_queues_of_another_database_are_not(self):
        other = redis.Redis(port=self.redis.connection_pool.connection_kwargs[
            'port'], db=5)
        self.assertFalse(metadata.same_database(
            self.control.queue_controller, other))

    def test_a_delay_set_after_a_post_applies_to_the_next(self):
        first, = self.post({'n': 1})
        self.queues.set_metadata(QUEUE, {'_default_message_delay': 60},
                                 project=behaviour.PROJECT)
        second, = self.post({'n': 2})
        self.assertEqual([first], readies.ids(self.redis, self.index))
        self.assertEqual([second], list(waiting.ids(self.redis, self.index)))

    def test_a_dedup_key_set_after_a_post_applies_to_the_next(self):
        self.post({'k': 'a'})
        self.queues.set_metadata(QUEUE, {'_dedup_key': 'k'},
                                 project=behaviour.PROJECT)
        second, = self.post({'k': 'a'})
        self.assertEqual([second], self.post({'k': 'a'}))
        self.assertEqual(2, self.redis.zcard(self.index.messages))

    def test_a_post_refused_by_metadata_last_seen_is_planned_again(self):
        self.queues.set_metadata(QUEUE, {'_default_message_delay': 300},
                                 project=behaviour.PROJECT)
        self.post({'n': 1})   # this process has now seen that delay
        self.queues.set_metadata(QUEUE, {}, project=behaviour.PROJECT)
        # A ttl shorter than the delay last seen, not than the queue's.
        mid, = self.messages.post(QUEUE, [{'ttl': 60, 'body': 2}],
                                  behaviour.CLIENT, behaviour.PROJECT)
        self.assertEqual([mid], readies.ids(self.redis, self.index))

    def test_a_post_planned_with_other_metadata_stores_nothing(self):
        self.queues.set_metadata(QUEUE, {'_default_message_delay': 60},
                                 project=behaviour.PROJECT)
        stored = self.redis.hget(keys.queue_hash(QUEUE, behaviour.PROJECT),
                                 'm')
        reply = self.messages.store(
            QUEUE, behaviour.PROJECT, [{'ttl': 600, 'body': 1}],
            behaviour.CLIENT, [0], [None], planned_with=b'')
        self.assertEqual([0, stored], reply)
        self.assertEqual(0, self.redis.zcard(self.index.messages))


class PlannedTest(redis_store.DelayTestBase):
    """``metadata.Cache.planned``: a script call planned again while the
    metadata it was planned with is not the queue's."""

    def setUp(self):
        super().setUp()
        self.queues.create(QUEUE, project=behaviour.PROJECT)
        self.cache = metadata.Cache(self.redis)
        self.calls = []

    def set_metadata(self, queue_meta):
        self.queues.set_metadata(QUEUE, queue_meta,
                                 project=behaviour.PROJECT)
        return self.redis.hget(
            keys.queue_hash(QUEUE, behaviour.PROJECT), 'm')

    def planned(self, replies, refused=()):
        def run(queue_meta, packed):
            self.calls.append((queue_meta, packed))
            reply = replies.pop(0)
            if isinstance(reply, Exception):
                raise reply
            return reply
        return self.cache.planned(QUEUE, behaviour.PROJECT, run, refused)

    def test_a_stale_plan_is_planned_again_with_the_metadata_returned(self):
        stored = self.set_metadata({'_default_message_delay': 60})
        self.cache.put(QUEUE, behaviour.PROJECT, b'')
        self.assertEqual(
            (msgpack.unpackb(stored), ['done']),
            self.planned([[metadata.STALE_PLAN, stored], ['done']]))
        self.assertEqual([({}, b''), (msgpack.unpackb(stored), stored)],
                         self.calls)
        self.assertEqual(stored, self.cache.get(QUEUE, behaviour.PROJECT))

    def test_stale_plans_beyond_the_limit_give_none(self):
        metas = [msgpack.packb({'n': n})
                 for n in range(metadata.STALE_PLANS + 1)]
        replies = [[metadata.STALE_PLAN, packed] for packed in metas]
        self.assertIsNone(self.planned(replies))
        self.assertEqual(metadata.STALE_PLANS, len(self.calls))
        # The last metadata returned is kept, the one never replied is not.
        self.assertEqual(1, len(replies))
        self.assertEqual(metas[-2], self.cache.get(QUEUE, behaviour.PROJECT))

    def test_refused_by_the_metadata_last_seen_is_planned_again(self):
        self.cache.put(QUEUE, behaviour.PROJECT, b'')
        stored = self.set_metadata({'_default_message_delay': 60})
        self.assertEqual(
            (msgpack.unpackb(stored), ['done']),
            self.planned([errors.Refused('no'), ['done']],
                         refused=errors.Refused))
        self.assertEqual([b'', stored], [packed for _, packed in self.calls])

    def test_refused_by_the_queues_metadata_is_raised(self):
        self.set_metadata({'_default_message_delay': 60})
        self.assertRaises(errors.Refused, self.planned,
                          [errors.Refused('no'), ['done']],
                          refused=errors.Refused)
        self.assertEqual(1, len(self.calls))

    def test_other_errors_are_raised(self):
        self.assertRaises(errors.Refused, self.planned,
                          [errors.Refused('no'), ['done']])
        self.assertEqual(1, len(self.calls))
