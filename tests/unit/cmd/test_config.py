"""The config files of the dispatcher and the exporter."""

import os

import fixtures
from oslo_config import cfg
import testtools

from zaqar_delay.cmd import config
from zaqar_delay import errors


class ParseTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.folder = self.useFixture(fixtures.TempDir()).path
        # oslo.config looks in ~ and /etc: nothing is found there.
        self.useFixture(fixtures.MonkeyPatch(
            'oslo_config.cfg.find_config_files', lambda *a, **k: []))

    def test_no_config_file_is_a_usage_failure(self):
        error = self.assertRaises(errors.UsageFailure, config.parse,
                                  cfg.ConfigOpts(), [], 'prog')
        self.assertIn('give --config-file', str(error))

    def test_a_missing_one_is_oslo_config_s_error(self):
        self.assertRaises(cfg.ConfigFilesNotFoundError, config.parse,
                          cfg.ConfigOpts(),
                          ['--config-file', self.folder + '/none.conf'],
                          'prog')

    def test_one_given_is_read(self):
        path = os.path.join(self.folder, 'zaqar.conf')
        with open(path, 'w') as f:
            f.write('[DEFAULT]\npooling = True\n')
        conf = cfg.ConfigOpts()
        conf.register_opt(cfg.BoolOpt('pooling'))
        config.parse(conf, ['--config-file', path], 'prog')
        self.assertTrue(conf.pooling)
