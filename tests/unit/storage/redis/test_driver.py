from oslo_config import cfg
import testtools
from zaqar.conf import drivers_message_store_redis as redis_opts
from zaqar.storage import utils as storage_utils

from zaqar_delay.storage.redis import driver


def _conf(uri='redis://10.0.0.1:6379'):
    conf = cfg.ConfigOpts()
    conf.register_opts(redis_opts.ALL_OPTS, group=redis_opts.GROUP_NAME)
    conf([])
    conf.set_override('uri', uri, group=redis_opts.GROUP_NAME)
    return conf


class ConnectionUriTest(testtools.TestCase):

    def test_non_pooled_uses_the_redis_group(self):
        self.assertEqual('redis://10.0.0.1:6379',
                         driver.connection_uri(_conf()))

    def test_pool_uri_is_used_with_the_redis_scheme(self):
        conf = storage_utils.dynamic_conf(
            'redis.delay://127.0.0.9:7000?dbid=3', {}, conf=_conf())
        self.assertEqual('redis://127.0.0.9:7000?dbid=3',
                         driver.connection_uri(conf))
