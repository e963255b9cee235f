"""The backend contracts (``tests.common.contracts``) on ``redis.delay``."""

from tests.common import contracts
from tests.fixtures import redis_store


class RedisContractsTest(contracts.Contracts, redis_store.DelayTestBase):
    pass
