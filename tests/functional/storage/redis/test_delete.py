"""Deletes on ``redis.delay``: the queue checked by the delete script."""

from zaqar.storage import errors

from tests.common import behaviour
from tests.fixtures import redis_store
from zaqar_delay.storage.redis import keys

QUEUE = 'delete.queue.with.dots'


class DeleteTest(redis_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.queues.create(QUEUE, project=behaviour.PROJECT)
        self.messages = self.driver.message_controller
        self.index = keys.index(QUEUE, behaviour.PROJECT)

    def post(self):
        mid, = self.messages.post(QUEUE, [{'ttl': 600, 'body': 1}],
                                  behaviour.CLIENT, behaviour.PROJECT)
        return mid

    def claim(self):
        claim_id, claimed = self.driver.claim_controller.create(
            QUEUE, {'ttl': 60, 'grace': 60}, behaviour.PROJECT)
        return claim_id, [msg['id'] for msg in claimed]

    def commands(self):
        """Commands the server ran since the last call, by name (those
        of scripts included)."""
        stats = self.redis.info('commandstats')
        self.redis.config_resetstat()
        return {name[len('cmdstat_'):]: value['calls']
                for name, value in stats.items()}

    def test_a_delete_with_its_claim_is_one_script_call(self):
        mid = self.post()
        claim_id, claimed = self.claim()
        self.assertEqual([mid], claimed)
        self.commands()
        self.messages.delete(QUEUE, mid, behaviour.PROJECT, claim=claim_id)
        ran = self.commands()
        self.assertEqual(1, ran.get('evalsha'))
        self.assertNotIn('zrank', ran)       # no queue check before it
        self.assertEqual(0, self.redis.zcard(self.index.messages))
        self.assertEqual(0, self.redis.exists(mid))

    def test_a_queue_gone_from_the_queue_set_deletes_nothing(self):
        # Its messages' keys are still there: only the script's check
        # of the queue set keeps the delete from taking them.
        mid = self.post()
        self.redis.zrem(keys.queues(behaviour.PROJECT),
                        keys.queue_hash(QUEUE, behaviour.PROJECT))
        self.assertFalse(self.queues.exists(QUEUE, behaviour.PROJECT))
        self.assertIsNone(self.messages.delete(QUEUE, mid, behaviour.PROJECT))
        self.assertEqual(1, self.redis.exists(mid))
        self.assertEqual([mid.encode()], self.redis.zrange(
            self.index.messages, 0, -1))

    def test_a_delete_on_a_deleted_queue_is_a_no_op(self):
        mid = self.post()
        self.queues.delete(QUEUE, project=behaviour.PROJECT)
        self.assertIsNone(self.messages.delete(QUEUE, mid, behaviour.PROJECT))
        self.assertIsNone(self.messages.delete(
            QUEUE, mid, behaviour.PROJECT, claim='not-a-claim-id'))

    def test_a_bad_claim_id_on_a_queue_that_exists_is_refused(self):
        mid = self.post()
        self.assertRaises(
            errors.ClaimDoesNotExist, self.messages.delete, QUEUE, mid,
            behaviour.PROJECT, claim='not-a-claim-id')
        self.assertEqual(1, self.redis.exists(mid))

    def test_queues_of_another_database_are_checked_before(self):
        # As when the management store is elsewhere: the queue
        # controller checks the queue, and the script does not.
        self.messages._metadata = None
        mid = self.post()
        self.commands()
        self.messages.delete(QUEUE, mid, behaviour.PROJECT)
        ran = self.commands()
        self.assertEqual(1, ran.get('zrank'))
        self.assertEqual(0, self.redis.exists(mid))
