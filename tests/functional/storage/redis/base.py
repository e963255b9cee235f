"""Set-up shared by the tests that run against a real redis-server."""

import os

from zaqar.storage.redis import driver as upstream_driver

from tests.functional import services
from tests.functional import storage
from zaqar_delay.storage.redis import driver as delay_driver

DRIVER_CONF = """
[DEFAULT]
pooling = {pooling}
unreliable = True

[drivers]
transport = wsgi
message_store = redis.delay
management_store = redis

[drivers:message_store:redis]
uri = {url}?dbid={dbid}
max_reconnect_attempts = 3
reconnect_sleep = 0.1

[drivers:management_store:redis]
uri = {url}?dbid={dbid}
max_reconnect_attempts = 3
reconnect_sleep = 0.1

[pooling:catalog]
enable_virtual_pool = True
"""

CONF = 'wsgi_redis_delay.conf'
POOLED_CONF = 'wsgi_redis_delay_pooled.conf'


class RedisMixin:
    """Start the process's redis-server, write the confs, flush after."""

    def setUp(self):
        server = services.redis_server()
        services.zaqar_conf_dir(CONF, DRIVER_CONF.format(
            pooling=False, url=server.url, dbid=0))
        services.zaqar_conf_dir(POOLED_CONF, DRIVER_CONF.format(
            pooling=True, url=server.url, dbid=0))
        os.environ['ZAQAR_TEST_REDIS'] = '1'
        os.environ['ZAQAR_TEST_REDIS_URL'] = server.url.replace(
            'redis://', 'redis.delay://')
        self.redis = server.client
        self.addCleanup(server.client.flushall)
        super().setUp()


def drivers(conf, data_driver=delay_driver.DataDriver):
    """A redis control driver and a data driver on it, from ``conf``."""
    return storage.drivers(conf, upstream_driver.ControlDriver, data_driver)
