import types

from oslo_config import cfg
import testtools
from zaqar.common import errors as zaqar_errors
from zaqar.conf import drivers_message_store_redis as redis_opts
from zaqar.storage import utils as storage_utils

from zaqar_delay import opts
from zaqar_delay.storage.redis import driver
from zaqar_delay.storage.redis import scripting


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

    def test_pool_uri_is_used_once_the_redis_delay_group_exists(self):
        # A redis.delay driver made on the conf registered the group;
        # Zaqar then sets only the options the group has.
        conf = _conf()
        opts.register_redis_opts(conf)
        self.assertEqual('redis://10.0.0.1:6379',
                         driver.connection_uri(conf))
        conf = storage_utils.dynamic_conf(
            'redis.delay://127.0.0.9:7000?dbid=3', {'wait_replicas': 1},
            conf=conf)
        self.assertEqual('redis://127.0.0.9:7000?dbid=3',
                         driver.connection_uri(conf))
        self.assertEqual(1, conf[opts.REDIS_GROUP].wait_replicas)

    def test_a_pooled_sentinel_uri_keeps_its_sentinels(self):
        conf = storage_utils.dynamic_conf(
            'redis.delay://127.0.0.1:26379,127.0.0.2:26380?master=m&dbid=2',
            {}, conf=_conf())
        self.assertEqual('redis://127.0.0.1:26379,127.0.0.2:26380?master=m'
                         '&dbid=2', driver.connection_uri(conf))


class _Pool:
    """What ``replication`` reads of a client: its socket timeout."""

    def __init__(self, socket_timeout):
        self.connection_pool = types.SimpleNamespace(
            connection_kwargs={'socket_timeout': socket_timeout})


class ReplicationTest(testtools.TestCase):

    def test_off_by_default(self):
        self.assertEqual(scripting.NO_WAIT,
                         driver.replication(_conf(), _Pool(0.1)))

    def test_from_the_redis_delay_group(self):
        conf = _conf()
        opts.register_redis_opts(conf)
        conf.set_override('wait_replicas', 2, group=opts.REDIS_GROUP)
        self.assertEqual((2, 50), driver.replication(conf, _Pool(0.1)))

    def test_from_a_pools_options(self):
        conf = storage_utils.dynamic_conf(
            'redis.delay://127.0.0.1:6379', {'wait_replicas': 1,
                                             'wait_timeout_ms': 20},
            conf=_conf())
        self.assertEqual((1, 20), driver.replication(conf, _Pool(0.1)))

    def test_a_wait_longer_than_the_socket_timeout_is_refused(self):
        conf = _conf()
        opts.register_redis_opts(conf)
        conf.set_override('wait_replicas', 1, group=opts.REDIS_GROUP)
        conf.set_override('wait_timeout_ms', 100, group=opts.REDIS_GROUP)
        error = self.assertRaises(zaqar_errors.ConfigurationError,
                                  driver.replication, conf, _Pool(0.1))
        self.assertIn('socket_timeout', str(error))
        self.assertEqual((1, 100), driver.replication(conf, _Pool(0.5)))
