"""The deduplication suite on ``redis.delay``."""

from tests.common import dedup
from tests.fixtures import redis_store


class RedisDedupTest(dedup.DedupBehaviour, redis_store.DelayTestBase):
    pass
