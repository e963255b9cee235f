"""Tempest's entry point (``tempest.test_plugins``) into this package."""

import os

from tempest import config
from tempest.test_discover import plugins

from zaqar_delay.tempest_plugin import config as delay_config


class DelayTempestPlugin(plugins.TempestPlugin):

    def load_tests(self):
        here = os.path.dirname(os.path.abspath(__file__))
        top = os.path.dirname(os.path.dirname(here))
        return os.path.join(here, 'tests'), top

    def register_opts(self, conf):
        config.register_opt_group(conf,
                                  delay_config.delayed_messaging_group,
                                  delay_config.DelayedMessagingGroup)

    def get_opt_lists(self):
        return [(delay_config.delayed_messaging_group.name,
                 delay_config.DelayedMessagingGroup)]
