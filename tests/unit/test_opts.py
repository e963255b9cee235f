from oslo_config import cfg
import stevedore
import testtools

from zaqar_delay import opts


class OptsTest(testtools.TestCase):

    def test_entry_point_lists_every_option(self):
        manager = stevedore.DriverManager('oslo.config.opts', 'zaqar_delay')
        groups = dict(manager.driver())
        self.assertEqual({'ttl_shorter_than_delay', 'promote_batch_size',
                          'redis_server_clock', 'max_history_ttl',
                          'delay_without_default'},
                         {o.name for o in groups['delay']})
        self.assertEqual(['wait_replicas', 'wait_timeout_ms'],
                         [o.name for o in groups[opts.REDIS_GROUP]])
        self.assertEqual(['max_queues', 'queues', 'host', 'port'],
                         [o.name for o in groups[opts.METRICS_GROUP]])
        self.assertEqual(['max_message_delay'],
                         [o.name for o in groups['transport']])

    def test_register_opts_is_idempotent_and_keeps_defaults(self):
        conf = cfg.ConfigOpts()
        opts.register_opts(conf)
        opts.register_opts(conf)
        conf([])
        self.assertEqual('reject', conf.delay.ttl_shorter_than_delay)
        self.assertEqual(100, conf.delay.promote_batch_size)
        self.assertFalse(conf.delay.redis_server_clock)
        self.assertEqual(7 * 86400, conf.delay.max_history_ttl)
        self.assertEqual(900, conf.transport.max_message_delay)

    def test_policy_choices(self):
        conf = cfg.ConfigOpts()
        opts.register_opts(conf)
        conf([])
        self.assertRaises(ValueError, conf.set_override,
                          'ttl_shorter_than_delay', 'drop', group='delay')
