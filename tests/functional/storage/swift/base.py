"""Set-up shared by the tests that run against the real Keystone + Swift.

Queues are kept by a redis management store (the process's
redis-server); messages by ``swift.delay`` on the process's Swift.
"""

import os
import uuid

from zaqar.storage.redis import driver as redis_driver

from tests.functional import openstack
from tests.functional import services
from tests.functional import storage
from zaqar_delay.storage.swift import driver as delay_driver

DRIVER_CONF = """
[DEFAULT]
unreliable = True
pooling = False

[drivers]
transport = wsgi
message_store = swift.delay
management_store = redis

[drivers:message_store:swift]
uri = swift://{admin}:{password}@/{admin}
auth_url = {keystone}/v3
project_domain_name = Default
user_domain_name = Default
region_name = {region}
interface = public

[drivers:management_store:redis]
uri = {redis}?dbid=3
"""

CONF = 'wsgi_swift_delay.conf'


class SwiftMixin:
    """Start the process's Keystone, Swift and redis; unique projects."""

    def setUp(self):
        stack = services.keystone_swift()
        redis = services.redis_server()
        services.zaqar_conf_dir(CONF, DRIVER_CONF.format(
            admin=openstack.ADMIN, password=openstack.PASSWORD,
            keystone=stack.keystone, region=openstack.REGION,
            redis=redis.url))
        os.environ.setdefault('ZAQAR_TEST_SWIFT', '1')
        self.project = 'p-' + uuid.uuid4().hex[:8]
        self.addCleanup(redis.client.flushall)
        super().setUp()


def drivers(conf, data_driver=delay_driver.DataDriver):
    """A redis control driver and a swift data driver."""
    return storage.drivers(conf, redis_driver.ControlDriver, data_driver)
