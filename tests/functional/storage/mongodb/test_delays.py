"""The delay behaviour suite on ``mongodb.delay``."""

from zaqar.storage.redis import driver as redis_driver

from tests.common import behaviour
from tests.fixtures import mongodb_store
from zaqar_delay.storage.mongodb import driver


class MongoDelayBehaviourTest(behaviour.DelayBehaviour,
                              mongodb_store.DelayTestBase):
    pass


class MongoFIFODelayBehaviourTest(behaviour.DelayBehaviour,
                                  mongodb_store.DelayTestBase):
    data_driver = driver.FIFODataDriver


class MongoDelayRedisManagedBehaviourTest(behaviour.DelayBehaviour,
                                          mongodb_store.DelayTestBase):
    """With a redis management store: queue records and metadata live
    in redis, so the driver keeps its marker counters itself."""
    config_file = mongodb_store.REDIS_MANAGED_CONF
    control_driver = redis_driver.ControlDriver
