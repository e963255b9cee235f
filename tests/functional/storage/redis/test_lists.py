"""Lists on ``redis.delay``: one script call checks the queue, lists and
returns the messages' fields."""

from zaqar.storage import errors

from tests.common import behaviour
from tests.fixtures import redis_store
from zaqar_delay.storage.redis import keys

QUEUE = 'list.queue.with.dots'


class ListTest(redis_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.queues.create(QUEUE, project=behaviour.PROJECT)
        self.messages = self.driver.message_controller

    def post(self, *bodies, delay=0):
        return self.messages.post(
            QUEUE, [{'ttl': 600, 'body': body, 'delay': delay}
                    for body in bodies], behaviour.CLIENT, behaviour.PROJECT)

    def page(self, **kwargs):
        pages = self.messages.list(QUEUE, project=behaviour.PROJECT,
                                   client_uuid=behaviour.OTHER_CLIENT,
                                   **kwargs)
        return list(next(pages)), next(pages)

    def round_trips(self):
        """The requests sent from now on (``redis_store.RoundTrips``),
        once redis has the list script."""
        self.page()
        return self.useFixture(redis_store.RoundTrips()).sent

    def test_a_list_is_one_round_trip(self):
        ready = self.post({'n': 1}, {'n': 2})
        waiting = self.post({'n': 3}, delay=60)
        sent = self.round_trips()
        listed, marker = self.page(include_delayed=True)
        self.assertEqual(['EVALSHA'], sent)
        self.assertEqual(ready + waiting, [m['id'] for m in listed])
        self.assertEqual([{'n': 1}, {'n': 2}, {'n': 3}],
                         [m['body'] for m in listed])
        self.assertEqual([600] * 3, [m['ttl'] for m in listed])
        self.assertIsNotNone(marker)
        # The next page, from the marker: one round trip, empty.
        del sent[:]
        self.assertEqual([], self.page(marker=marker)[0])
        self.assertEqual(['EVALSHA'], sent)

    def test_a_queue_gone_from_the_queue_set_lists_nothing(self):
        # Its messages are still indexed: only the script's check of the
        # queue set keeps the list from showing them.
        self.post({'n': 1})
        self.redis.zrem(keys.queues(behaviour.PROJECT),
                        keys.queue_hash(QUEUE, behaviour.PROJECT))
        self.assertRaises(errors.QueueDoesNotExist, self.page)

    def test_queues_of_another_database_are_checked_before(self):
        # As when the management store is elsewhere: the queue
        # controller checks the queue, then the script lists.
        self.messages._metadata = None
        self.post({'n': 1})
        sent = self.round_trips()
        self.assertEqual([{'n': 1}], [m['body'] for m in self.page()[0]])
        self.assertEqual(2, len(sent), sent)
        self.assertEqual('EVALSHA', sent[-1])
        self.messages.delete(QUEUE, self.page()[0][0]['id'],
                             behaviour.PROJECT)
        self.queues.delete(QUEUE, project=behaviour.PROJECT)
        self.assertRaises(errors.QueueDoesNotExist, self.page)
