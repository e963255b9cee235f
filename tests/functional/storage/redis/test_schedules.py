"""The schedule index suite on ``redis.delay``."""

from tests.common import schedule_store
from tests.fixtures import redis_store


class RedisScheduleStoreTest(schedule_store.ScheduleStoreBehaviour,
                             redis_store.DelayTestBase):
    pass
