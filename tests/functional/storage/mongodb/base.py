"""Set-up shared by the tests that run against a MongoDB server.

The server is secantusdb (a MongoDB wire-protocol server from PyPI),
started per test process, or the server of ZAQAR_DELAY_TEST_MONGODB_URL
(a real mongod, say).
"""

import uuid

from zaqar.conf import drivers_message_store_mongodb as message_opts
from zaqar.storage.mongodb import driver as upstream_driver
from zaqar.tests.unit.storage import test_impl_mongodb

from tests.functional import services
from tests.functional import storage
from zaqar_delay.storage.mongodb import driver as delay_driver

DRIVER_CONF = """
[DEFAULT]
unreliable = True
pooling = False

[drivers]
transport = wsgi
message_store = mongodb.delay
management_store = mongodb

[drivers:message_store:mongodb]
uri = {url}
database = zd_messages
max_reconnect_attempts = 3
reconnect_sleep = 0.001
max_attempts = 5

[drivers:management_store:mongodb]
uri = {url}
database = zd_management
"""

CONF = 'wsgi_mongodb_delay.conf'
# The same with a redis management store, as zaqar-servers often have.
REDIS_MANAGED_CONF = 'wsgi_mongodb_delay_redis_managed.conf'
REDIS_MANAGEMENT = """
[drivers:management_store:redis]
uri = {url}?dbid=7
"""


class MongoMixin(test_impl_mongodb.MongodbSetupMixin):
    """Start the process's MongoDB server; a fresh database per test."""

    def setUp(self):
        server = services.mongo_server()
        services.zaqar_conf_dir(CONF, DRIVER_CONF.format(url=server.url))
        services.zaqar_conf_dir(REDIS_MANAGED_CONF, DRIVER_CONF.format(
            url=server.url).replace('management_store = mongodb',
                                    'management_store = redis')
            + REDIS_MANAGEMENT.format(url=services.redis_server().url))
        self.mongo = server.client
        super().setUp()


def drivers(conf, data_driver=delay_driver.DataDriver,
            control_driver=upstream_driver.ControlDriver):
    """A control driver (mongodb unless told) and a data driver, on
    fresh databases."""
    conf.register_opts(message_opts.ALL_OPTS, group=message_opts.GROUP_NAME)
    conf.set_override('database', 'zd_' + uuid.uuid4().hex,
                      group=message_opts.GROUP_NAME)
    return storage.drivers(conf, control_driver, data_driver)
