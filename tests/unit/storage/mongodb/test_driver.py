from oslo_config import cfg
import testtools
from zaqar.storage import utils as storage_utils

from zaqar_delay.storage import common
from zaqar_delay.storage.mongodb import driver


class PoolUriTest(testtools.TestCase):

    def test_not_pooled(self):
        conf = cfg.ConfigOpts()
        conf([])
        self.assertIsNone(common.pool_uri(conf, driver.NAMES, 'mongodb'))

    def test_pool_uris_get_the_mongodb_scheme(self):
        for name in driver.NAMES:
            conf = storage_utils.dynamic_conf(
                name + '://10.0.0.7:27017/?w=1', {}, conf=None)
            self.assertEqual('mongodb://10.0.0.7:27017/?w=1',
                             common.pool_uri(conf, driver.NAMES, 'mongodb'))
