"""The queues a catalog maps to a pool (``catalog.pool_queues``), on
Zaqar's SQL management store over a SQLite file (the MongoDB catalogue
is read by the pooled scrape tests in tests/functional/metrics)."""

import fixtures
from oslo_config import cfg
from osprofiler import opts as profiler_opts
from zaqar.conf import profiler
from zaqar.storage.redis import driver as redis_driver
from zaqar.storage.sqlalchemy import driver as sql_driver
from zaqar.storage.sqlalchemy import tables
import testtools

from zaqar_delay.storage import catalog


class SqlCatalogTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        folder = self.useFixture(fixtures.TempDir()).path
        conf = cfg.ConfigOpts()
        conf([], project='zaqar')
        profiler_opts.set_defaults(conf)
        conf.register_opts(profiler.ALL_OPTS, group=profiler.GROUP_NAME)
        self.control = sql_driver.ControlDriver(conf, None)
        conf.set_override('uri', 'sqlite:///%s/catalog.db' % folder,
                          group='drivers:management_store:sqlalchemy')
        tables.metadata.create_all(self.control.engine)
        for name in ('one', 'two'):
            self.control.run(tables.Pools.insert().values(
                name=name, uri='redis.delay://127.0.0.1/' + name, weight=1))
        catalogue = self.control.catalogue_controller
        catalogue.insert('tenant.a', 'orders.eu', 'one')
        catalogue.insert(None, 'plain', 'one')
        catalogue.insert('tenant.a', 'elsewhere', 'two')

    def test_the_queues_of_one_pool(self):
        self.assertEqual({('tenant.a', 'orders.eu'), (None, 'plain')},
                         set(catalog.pool_queues(self.control, 'one')))
        self.assertEqual([('tenant.a', 'elsewhere')],
                         catalog.pool_queues(self.control, 'two'))
        self.assertEqual([], catalog.pool_queues(self.control, 'none'))


class UnknownCatalogTest(testtools.TestCase):

    def test_a_redis_management_store_cannot_say(self):
        control = redis_driver.ControlDriver.__new__(
            redis_driver.ControlDriver)
        self.assertIsNone(catalog.pool_queues(control, 'one'))
