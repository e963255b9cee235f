"""The delay behaviour suite on ``mongodb.delay``."""

from zaqar.storage import pipeline
from zaqar.storage.redis import driver as redis_driver
from zaqar.tests import base as zaqar_base

from tests.functional.storage import behaviour
from tests.functional.storage.mongodb import base
from zaqar_delay.storage.mongodb import driver


class MongoDelayTestBase(base.MongoMixin, zaqar_base.TestBase):
    config_file = base.CONF
    data_driver = driver.DataDriver
    control_driver = base.upstream_driver.ControlDriver

    def setUp(self):
        super().setUp()
        self.control, self.driver = base.drivers(
            self.conf, self.data_driver, self.control_driver)
        self.queues = pipeline.DataDriver(self.conf, self.driver,
                                          self.control).queue_controller

    def _purge_databases(self):
        for db in self.driver.message_databases:
            self.driver.connection.drop_database(db)
        if hasattr(self.control, 'queues_database'):
            self.driver.connection.drop_database(self.control.queues_database)
        else:
            self.control.connection.flushdb()


class MongoDelayBehaviourTest(behaviour.DelayBehaviour, MongoDelayTestBase):
    pass


class MongoFIFODelayBehaviourTest(behaviour.DelayBehaviour,
                                  MongoDelayTestBase):
    data_driver = driver.FIFODataDriver


class MongoDelayRedisManagedBehaviourTest(behaviour.DelayBehaviour,
                                          MongoDelayTestBase):
    """With a redis management store: queue records and metadata live
    in redis, so the driver keeps its marker counters itself."""
    config_file = base.REDIS_MANAGED_CONF
    control_driver = redis_driver.ControlDriver
