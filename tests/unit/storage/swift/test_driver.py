from oslo_config import cfg
from oslo_log import log
import testtools
from zaqar.conf import default
from zaqar.conf import drivers_message_store_swift as swift_opts
from zaqar.conf import profiler
from zaqar.storage import utils as storage_utils

from zaqar_delay.storage.swift import driver
from zaqar_delay.storage.swift import index


def _conf():
    conf = cfg.ConfigOpts()
    log.register_options(conf)
    conf.register_opts(default.ALL_OPTS)
    conf.register_opts(profiler.ALL_OPTS, group=profiler.GROUP_NAME)
    conf([])
    return conf


class PoolUriTest(testtools.TestCase):

    def test_not_pooled_uses_the_swift_group(self):
        conf = _conf()
        conf.register_opts(swift_opts.ALL_OPTS, group=swift_opts.GROUP_NAME)
        conf.set_override('uri', 'swift://u:p@/proj',
                          group=swift_opts.GROUP_NAME)
        data = driver.DataDriver(conf, None, None)
        self.assertEqual('swift://u:p@/proj', data.swift_conf.uri)

    def test_pool_uri_replaces_the_uri_only(self):
        conf = storage_utils.dynamic_conf('swift.delay://u2:p2@/proj2', {},
                                          conf=_conf())
        data = driver.DataDriver(conf, None, None)
        self.assertEqual('swift://u2:p2@/proj2', data.swift_conf.uri)
        self.assertEqual('public', data.swift_conf.interface)


class NamesTest(testtools.TestCase):

    def test_timed_names_sort_by_time_and_list_up_to_now(self):
        name = index.timed(100, 900, 'm')
        self.assertEqual((100, 900, 'm'), index.untimed(name))
        self.assertLess(name, index.due_until(100))
        self.assertGreater(index.timed(100.001, 0, 'm'),
                           index.due_until(100))
