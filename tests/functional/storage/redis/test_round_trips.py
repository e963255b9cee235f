"""The round trips of each operation of ``redis.delay`` on a queue this
process has seen (doc/source/redis.rst, "Round trips"): a test fails
when one more comes back."""

from tests.common import behaviour
from tests.fixtures import redis_store

QUEUE = 'trips.queue.with.dots'
TERMS = {'ttl': 60, 'grace': 60}


class RoundTripsTest(redis_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.queues.create(QUEUE, project=behaviour.PROJECT)
        self.messages = self.driver.message_controller
        self.claims = self.driver.claim_controller
        # The process has seen the queue's metadata and redis has each
        # script (a server loads one on its first use: one more trip).
        project = behaviour.PROJECT
        first, second = self.post(2)
        list(next(self.messages.list(QUEUE, project)))
        claim_id, _ = self.claims.create(QUEUE, TERMS, project, limit=1)
        self.claims.update(QUEUE, claim_id, TERMS, project)
        self.claims.delete(QUEUE, claim_id, project)
        self.messages.delete(QUEUE, first, project)
        self.messages.pop(QUEUE, 1, project=project)

    def post(self, count=1):
        return self.messages.post(
            QUEUE, [{'ttl': 600, 'body': n} for n in range(count)],
            behaviour.CLIENT, behaviour.PROJECT)

    def sent(self, operation, *args, **kwargs):
        """The commands, one a round trip, that ``operation`` sends."""
        with redis_store.RoundTrips() as trips:
            found = operation(*args, **kwargs)
            if hasattr(found, '__next__'):
                list(next(found))
            return trips.sent

    def test_each_operation(self):
        project = behaviour.PROJECT
        first, second = self.post(2)
        self.assertEqual(['EVALSHA'], self.sent(self.post, 10))
        self.assertEqual(['EVALSHA'], self.sent(
            self.messages.list, QUEUE, project, limit=10, echo=True))
        claimed = []
        self.assertEqual(['EVALSHA'], self.sent(
            lambda: claimed.append(self.claims.create(
                QUEUE, TERMS, project, limit=2))))
        (claim_id, messages), = claimed
        # Upstream's claim read, then each message's due time.
        self.assertEqual(['ZRANK', 'ZSCORE', 'HMGET', 'LRANGE', 'MULTI',
                          'HMGET', 'MULTI'], self.sent(
            self.claims.get, QUEUE, claim_id, project))
        self.assertEqual(['ZRANK', 'MULTI'], self.sent(
            self.messages.get, QUEUE, second, project))
        self.assertEqual(['EVALSHA'], self.sent(
            self.claims.update, QUEUE, claim_id, TERMS, project))
        self.assertEqual(['EVALSHA'], self.sent(
            self.claims.delete, QUEUE, claim_id, project))
        self.assertEqual(['EVALSHA'], self.sent(
            self.messages.pop, QUEUE, 2, project=project))
        self.assertEqual(['EVALSHA'], self.sent(
            self.messages.delete, QUEUE, first, project))
        self.assertEqual(['EVALSHA'], self.sent(
            self.messages.bulk_delete, QUEUE, [second], project))
