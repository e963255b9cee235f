"""The metrics counters of ``redis.delay`` (scripts/metrics.lua)."""

from tests.common import counters
from tests.fixtures import redis_store
from zaqar_delay.metrics import redis as reader


class RedisCountersTest(counters.CounterBehaviour,
                        redis_store.DelayTestBase):
    reader = reader
