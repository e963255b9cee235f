"""Posts on ``redis.delay`` planned with the metadata post.lua checks."""

import redis

from tests.common import behaviour
from tests.fixtures import redis_store
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import metadata
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
        self.assertEqual([first.encode()], self.redis.zrange(
            self.index.ready, 0, -1))
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
        self.assertIsNotNone(self.redis.zscore(self.index.ready, mid))

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
