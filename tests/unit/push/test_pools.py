"""One dispatcher per pool that keeps pending pushes, found again when
the pool list changes."""

import threading
import time
import types
from unittest import mock

import testtools
from oslo_config import cfg
from zaqar.conf import notification

from zaqar_delay import opts
from zaqar_delay.push import pools


class PoolsController:
    def __init__(self, *names):
        self.pools = {name: {'name': name, 'uri': name + '://h',
                             'options': {}} for name in names}

    def list(self, limit=10, detailed=False):
        yield [dict(pool) for pool in self.pools.values()]
        yield None

    def get(self, name, detailed=False):
        return self.pools[name]


def _driver(conf, cache, control_driver):
    """A pool's data driver: 'keeps' pools keep pending pushes; 'broken'
    ones fail to load."""
    if conf['drivers'].message_store == 'broken':
        raise RuntimeError('cannot reach the store')
    keeps = conf['drivers'].message_store == 'keeps'
    return types.SimpleNamespace(
        pushes=keeps, push_store=types.SimpleNamespace(take=None),
        message_controller=None, subscription_controller=None,
        clock=time.time)


class PoolDispatchersTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.conf = cfg.ConfigOpts()
        self.conf([], project='zaqar-delay-test')
        opts.register_opts(self.conf)
        self.conf.register_opts(notification.ALL_OPTS,
                                group=notification.GROUP_NAME)
        self.control = types.SimpleNamespace(
            pools_controller=PoolsController('keeps', 'plain'), cache=None,
            queue_controller=None)
        patcher = mock.patch.object(pools.storage_utils,
                                    'load_storage_driver', _driver)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.dispatchers = pools.PoolDispatchers(self.conf, self.control)

    def test_only_pools_that_keep_pushes_get_a_dispatcher(self):
        (fresh,) = self.dispatchers.refresh()
        self.assertEqual({'keeps', 'plain'}, set(self.dispatchers.dispatchers))
        self.assertIs(fresh, self.dispatchers.dispatchers['keeps'])
        self.assertIsNone(self.dispatchers.dispatchers['plain'])

    def test_a_pool_added_later_is_found_once(self):
        self.dispatchers.refresh()
        self.assertEqual([], self.dispatchers.refresh())
        self.control.pools_controller.pools['keeps2'] = {
            'name': 'keeps2', 'uri': 'keeps://other', 'options': {}}
        self.assertEqual(1, len(self.dispatchers.refresh()))

    def test_a_pool_that_fails_to_load_does_not_stop_the_others(self):
        self.control.pools_controller = PoolsController('broken', 'keeps')
        self.dispatchers = pools.PoolDispatchers(self.conf, self.control)
        (fresh,) = self.dispatchers.refresh()
        self.assertIs(fresh, self.dispatchers.dispatchers['keeps'])
        self.assertNotIn('broken', self.dispatchers.dispatchers)
        # Tried again at the next reading.
        self.control.pools_controller.pools['broken']['uri'] = 'keeps://b'
        self.assertEqual(1, len(self.dispatchers.refresh()))

    def test_a_repointed_pool_gets_a_new_dispatcher(self):
        (old,) = self.dispatchers.refresh()
        self.control.pools_controller.pools['keeps']['uri'] = 'keeps://new'
        (new,) = self.dispatchers.refresh()
        self.assertIsNot(old, new)
        self.assertTrue(old.stop.is_set())
        self.assertFalse(new.stop.is_set())
        self.assertIs(new, self.dispatchers.dispatchers['keeps'])

    def test_a_poke_makes_run_read_the_pool_list_again(self):
        calls = []
        self.dispatchers.refresh = lambda: calls.append(1) or []
        stop = threading.Event()
        thread = threading.Thread(target=self.dispatchers.run, args=(stop,))
        thread.start()
        self.addCleanup(thread.join)
        self.addCleanup(stop.set)
        for _ in range(100):
            if calls:
                break
            stop.wait(0.05)
        self.dispatchers.poke()
        for _ in range(100):    # 1 s between readings, then the poke
            if len(calls) > 1:
                break
            stop.wait(0.05)
        self.assertEqual(2, len(calls))
