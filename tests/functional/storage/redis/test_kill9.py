"""Worker processes on ``redis.delay`` killed with kill -9 at random
moments (``tests/common/kill9.py``)."""

from tests.common import kill9
from tests.fixtures import redis_store


class RedisKill9Test(kill9.KillTests, redis_store.DelayTestBase):

    store = 'redis.delay'
    conf_file = redis_store.CONF
