from oslo_config import cfg
import stevedore
import testtools
from zaqar.storage import utils as storage_utils

from zaqar_delay.storage.mongodb import driver


class PoolUriTest(testtools.TestCase):

    def test_not_pooled(self):
        conf = cfg.ConfigOpts()
        conf([])
        self.assertIsNone(driver.pool_uri(conf))

    def test_pool_uris_get_the_mongodb_scheme(self):
        for name in driver.NAMES:
            conf = storage_utils.dynamic_conf(
                name + '://10.0.0.7:27017/?w=1', {}, conf=None)
            self.assertEqual('mongodb://10.0.0.7:27017/?w=1',
                             driver.pool_uri(conf))


class EntryPointsTest(testtools.TestCase):

    def test_storage_drivers(self):
        for name, cls in (('mongodb.delay', driver.DataDriver),
                          ('mongodb.fifo.delay', driver.FIFODataDriver)):
            found = stevedore.DriverManager('zaqar.data.storage', name)
            self.assertIs(cls, found.driver)

    def test_stage_namespaces_follow_the_driver_module(self):
        for resource in ('queue', 'topic'):
            names = stevedore.ExtensionManager(
                '%s.%s.stages' % (driver.DataDriver.__module__, resource)
            ).names()
            self.assertEqual(['message_queue_handler'], names)
