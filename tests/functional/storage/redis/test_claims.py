"""Claims on ``redis.delay``: planned with the metadata claim.lua checks."""

from oslo_utils import uuidutils

from tests.common import behaviour
from tests.fixtures import redis_store
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import metadata
from zaqar_delay.storage.redis import readies
from zaqar_delay.storage.redis import records

QUEUE = 'claims.queue.with.dots'
DEAD = 'claims.dead.letters'
TERMS = {'ttl': 60, 'grace': 60}


class ClaimTestBase(redis_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        for name in (QUEUE, DEAD):
            self.queues.create(name, project=behaviour.PROJECT)
        self.messages = self.driver.message_controller
        self.claims = self.driver.claim_controller
        self.index = keys.index(QUEUE, behaviour.PROJECT)
        # Another process's driver on the same store.
        self.other, _ = redis_store.drivers(self.conf)

    def post(self):
        mid, = self.messages.post(QUEUE, [{'ttl': 600, 'body': 1}],
                                  behaviour.CLIENT, behaviour.PROJECT)
        return mid

    def claim(self, queue=QUEUE, limit=10):
        claim_id, claimed = self.claims.create(queue, TERMS,
                                               behaviour.PROJECT, limit)
        return claim_id, [msg['id'] for msg in claimed]

    def round_trips(self):
        """The requests sent from now on (``redis_store.RoundTrips``),
        once redis has the claim script (a restarted server loads it
        again on the first claim: one more round trip)."""
        self.claim(DEAD)
        return self.useFixture(redis_store.RoundTrips()).sent

    def set_elsewhere(self, queue_meta):
        self.other.queue_controller.set_metadata(QUEUE, queue_meta,
                                                 project=behaviour.PROJECT)


class ClaimMetadataTest(ClaimTestBase):

    def test_a_claim_on_a_queue_seen_is_one_round_trip(self):
        mid = self.post()    # this process has now seen the metadata
        sent = self.round_trips()
        claim_id, claimed = self.claim()
        self.assertEqual(['EVALSHA'], sent)
        self.assertEqual([mid], claimed)
        self.assertIsNotNone(self.redis.zscore(self.index.claimed, mid))

    def test_the_first_claim_on_a_queue_reads_its_metadata(self):
        self.redis.zadd(self.index.ready, {'gone': 1})  # an id, no hash
        sent = self.round_trips()
        self.assertEqual((None, []), self.claim())
        self.assertEqual(['HGET', 'EVALSHA'], sent)
        del sent[:]
        self.claim()
        self.assertEqual(['EVALSHA'], sent)

    def test_a_pop_is_one_round_trip(self):
        mid = self.post()
        sent = self.round_trips()
        self.assertEqual([mid], [msg['id'] for msg in self.messages.pop(
            QUEUE, 1, project=behaviour.PROJECT)])
        # The claim script deletes what it takes.
        self.assertEqual(['EVALSHA'], sent)
        self.assertEqual(0, self.redis.zcard(self.index.messages))
        self.assertEqual(0, self.redis.zcard(self.index.claimed))

    def test_a_dead_letter_policy_set_elsewhere_applies_to_the_next(self):
        mid = self.post()
        claim_id, _ = self.claim()
        self.claims.delete(QUEUE, claim_id, behaviour.PROJECT)
        self.set_elsewhere({'_max_claim_count': 1,
                            '_dead_letter_queue': DEAD})
        self.assertEqual((None, []), self.claim())
        dead = keys.index(DEAD, behaviour.PROJECT)
        self.assertIsNotNone(self.redis.zscore(dead.messages, mid))
        self.assertEqual(0, self.redis.zcard(self.index.messages))

    def test_a_retry_backoff_set_elsewhere_applies_to_the_next(self):
        mid, other = self.post(), self.post()
        self.claim(limit=1)  # this process has now seen no backoff
        self.set_elsewhere({'_retry_backoff': {'initial': 30}})
        self.assertEqual([other], self.claim()[1])
        self.assertEqual(b'30', self.redis.hget(other, 'rb'))
        self.assertIsNone(self.redis.hget(mid, 'rb'))

    def test_a_claim_planned_with_other_metadata_takes_nothing(self):
        mid = self.post()
        self.set_elsewhere({'_retry_backoff': {'initial': 30}})
        stored = self.redis.hget(keys.queue_hash(QUEUE, behaviour.PROJECT),
                                 'm')
        claim_id = uuidutils.generate_uuid()
        reply = self.claims._claim(
            QUEUE, behaviour.PROJECT, claim_id,
            self.claims._terms(self.driver.now_ms(), claim_id, TERMS) +
            [10, 100], {}, planned_with=b'')
        self.assertEqual([metadata.STALE_PLAN, stored], reply)
        self.assertEqual([mid], readies.ids(self.redis, self.index))
        self.assertEqual(0, self.redis.exists(claim_id))


class PopTest(ClaimTestBase):
    """A pop is a claim whose script deletes what it takes."""

    def pop_script(self, claim_id, limit=10):
        return self.claims._claim(
            QUEUE, behaviour.PROJECT, claim_id,
            self.claims._terms(self.driver.now_ms(), claim_id, TERMS) +
            [limit, 100], {}, pop=True)

    def test_a_retried_pop_returns_what_it_popped_and_takes_no_more(self):
        first, second = self.post(), self.post()
        claim_id = uuidutils.generate_uuid()
        popped = self.pop_script(claim_id, limit=1)
        self.assertEqual([first.encode()],
                         [values[0] for values in records.unpacked(popped)])
        self.assertEqual(popped, self.pop_script(claim_id, limit=1))
        self.assertEqual([second], readies.ids(self.redis, self.index))
        self.assertEqual(0, self.redis.exists(first))
        self.assertEqual([], self.redis.zrange(self.index.claimed, 0, -1))

    def test_a_pop_moves_one_claimed_too_often_and_releases_its_claim(self):
        poison, fresh = self.post(), self.post()
        claim_id, _ = self.claim(limit=1)
        self.claims.delete(QUEUE, claim_id, behaviour.PROJECT)
        self.queues.set_metadata(QUEUE, {'_max_claim_count': 1,
                                         '_dead_letter_queue': DEAD},
                                 project=behaviour.PROJECT)
        popped = self.messages.pop(QUEUE, 10, project=behaviour.PROJECT)
        self.assertEqual([fresh], [msg['id'] for msg in popped])
        dead = keys.index(DEAD, behaviour.PROJECT)
        self.assertIsNotNone(self.redis.zscore(dead.messages, poison))
        for index in (self.index.messages, self.index.claimed,
                      self.index.claim_expiry, self.index.ready_chunks):
            self.assertEqual(0, self.redis.zcard(index), index)
        self.assertEqual([], readies.ids(self.redis, self.index))
        claims_set = keys.claim(QUEUE, behaviour.PROJECT, claim_id)[0]
        self.assertEqual(0, self.redis.zcard(claims_set))
