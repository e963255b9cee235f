"""Concurrent claimers on ``redis.delay`` and a real redis-server."""

from zaqar.tests import base as zaqar_base

from tests.functional.storage import concurrency
from tests.functional.storage.redis import base


class RedisConcurrentClaimersTest(concurrency.ConcurrentClaimers,
                                  base.RedisMixin, zaqar_base.TestBase):
    config_file = base.CONF

    def _driver(self):
        return base.drivers(self.conf)
