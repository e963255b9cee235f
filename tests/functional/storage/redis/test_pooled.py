"""A ``redis.delay://`` pool URI: Zaqar loads our driver and it uses it;
a redis management store cannot keep pools in Zaqar 23."""

import uuid

import redis
from zaqar.storage import errors as storage_errors
from zaqar.storage import utils as storage_utils
from zaqar.tests import base as zaqar_base

from tests.fixtures import redis_store
from zaqar_delay.storage.redis import driver
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import waiting

POOL_DB = 7


class PoolUriTest(redis_store.RedisMixin, zaqar_base.TestBase):
    config_file = redis_store.CONF

    def test_pool_uri_selects_the_driver_and_its_database(self):
        control, _ = redis_store.drivers(self.conf)
        port = self.redis.connection_pool.connection_kwargs['port']
        uri = 'redis.delay://127.0.0.1:%d?dbid=%d' % (port, POOL_DB)

        conf = storage_utils.dynamic_conf(uri, {}, conf=self.conf)
        data = storage_utils.load_storage_driver(conf, control.cache,
                                                 control_driver=control)
        self.assertIsInstance(data, driver.DataDriver)

        control.queue_controller.create('q', project='p')
        (mid,) = data.message_controller.post(
            'q', [{'ttl': 60, 'body': 1, 'delay': 30}], str(uuid.uuid4()),
            project='p')

        in_pool = redis.Redis(port=port, db=POOL_DB)
        self.addCleanup(in_pool.flushdb)
        self.assertTrue(in_pool.exists(mid))
        self.assertEqual([mid], list(waiting.ids(in_pool,
                                                 keys.index('q', 'p'))))
        self.assertFalse(self.redis.exists(mid))


class RedisCatalogueTest(redis_store.RedisMixin, zaqar_base.TestBase):
    """Why ``redis.delay`` leaves the pool catalogue's keys as upstream
    names them, project ids unencoded (doc/source/redis.rst, "Project
    ids in keys"): Zaqar 23 cannot pool on a redis management store.
    When this test fails, a Zaqar can, and those keys need encoding."""

    config_file = redis_store.CONF

    def test_no_pool_is_made_and_no_catalogue_entry_read(self):
        control, _ = redis_store.drivers(self.conf)
        port = self.redis.connection_pool.connection_kwargs['port']
        uri = 'redis.delay://127.0.0.1:%d?dbid=%d' % (port, POOL_DB)
        pools = control.pools_controller
        # Without a flavor, a null flavor is written; with one, it is
        # passed on as the pool group, which redis refuses.
        self.assertRaises(redis.exceptions.DataError, pools.create,
                          'pool1', 100, uri)
        self.assertRaises(storage_errors.PoolRedisNotSupportGroup,
                          pools.create, 'pool2', 100, uri, flavor='f1')
        self.assertEqual([], list(next(pools.list())))
        # An entry written is read back with str keys from bytes ones.
        catalogue = control.catalogue_controller
        catalogue.insert('p', 'q', 'pool1')
        self.assertRaises(KeyError, catalogue.get, 'p', 'q')
