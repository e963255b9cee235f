"""The retry backoff suite on ``redis.delay``."""

from oslo_utils import timeutils

from tests.common import retries
from tests.fixtures import redis_store
from zaqar_delay.storage.redis import keys


class RedisRetryTest(retries.RetryBehaviour, redis_store.DelayTestBase):

    def release_script(self, claim_id):
        """The release script alone, as when the claim's end passed on
        the driver's clock but not yet for upstream's check (whole
        seconds of Zaqar's clock, or a redis server clock)."""
        return self.claims._lua['release'](
            keys=self.claims._keys(self.queue, retries.PROJECT, claim_id) +
            [keys.METRICS], args=[self.driver.now(), claim_id])

    def test_a_release_after_the_claim_ended_keeps_the_backoff(self):
        self.set_backoff(initial=60)
        (mid,) = self.post(0)
        claim_id, _ = self.claim(ttl=30)
        timeutils.advance_time_seconds(31)
        # This claim gives the message back, waiting 60 s.
        self.assertEqual([], self.claim()[1])
        self.assertEqual(0, self.release_script(claim_id))
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_seconds(60)
        self.assertEqual([mid], self.claim()[1])
        timeutils.advance_time_seconds(60)
        self.assertEqual([], self.claim()[1])
