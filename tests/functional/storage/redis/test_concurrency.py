"""Concurrent claimers on ``redis.delay`` and a real redis-server."""

from zaqar.tests import base as zaqar_base

from tests.common import concurrency
from tests.fixtures import redis_store


class RedisConcurrentClaimersTest(concurrency.ConcurrentClaimers,
                                  redis_store.RedisMixin, zaqar_base.TestBase):
    config_file = redis_store.CONF

    def _driver(self):
        return redis_store.drivers(self.conf)
