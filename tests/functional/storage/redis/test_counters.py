"""The metrics counters of ``redis.delay`` (scripts/metrics.lua)."""

from tests.common import counters
from tests.fixtures import redis_store
from zaqar_delay.storage.redis import metrics


class RedisCountersTest(counters.CounterBehaviour,
                        redis_store.DelayTestBase):
    reader = metrics.Metrics
