"""The retry backoff suite on ``redis.delay``."""

from tests.common import retries
from tests.fixtures import redis_store


class RedisRetryTest(retries.RetryBehaviour, redis_store.DelayTestBase):
    pass
