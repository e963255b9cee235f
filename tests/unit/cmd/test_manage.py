import io

import testtools

from zaqar_delay.cmd import manage


class ManageArgsTest(testtools.TestCase):

    def test_needs_a_store(self):
        error = self.assertRaises(SystemExit, manage.main,
                                  ['redis', 'migrate', '--to', 'redis'],
                                  out=io.StringIO())
        self.assertEqual(2, error.code)

    def test_target_must_be_a_redis_driver(self):
        error = self.assertRaises(SystemExit, manage.main,
                                  ['--uri', 'redis://x', 'redis', 'migrate',
                                   '--to', 'mongodb'], out=io.StringIO())
        self.assertEqual(2, error.code)

    def test_batch_must_be_positive(self):
        error = self.assertRaises(SystemExit, manage.main,
                                  ['--uri', 'redis://x', 'redis', 'migrate',
                                   '--to', 'redis', '--batch', '0'],
                                  out=io.StringIO())
        self.assertEqual(2, error.code)

    def test_export_needs_a_config_file(self):
        error = self.assertRaises(SystemExit, manage.main,
                                  ['--uri', 'redis://x', 'export',
                                   '--project', 'p1'], out=io.StringIO())
        self.assertEqual(2, error.code)

    def test_export_needs_a_project(self):
        error = self.assertRaises(SystemExit, manage.main,
                                  ['--config-file', 'z.conf', 'export'],
                                  out=io.StringIO())
        self.assertEqual(2, error.code)

    def test_pushes_needs_a_config_file(self):
        for action in ('failed', 'resend'):
            error = self.assertRaises(SystemExit, manage.main,
                                      ['--uri', 'redis://x', 'pushes',
                                       action], out=io.StringIO())
            self.assertEqual(2, error.code)

    def test_schedules_needs_a_config_file(self):
        error = self.assertRaises(SystemExit, manage.main,
                                  ['--uri', 'redis://x', 'schedules', 'q.1'],
                                  out=io.StringIO())
        self.assertEqual(2, error.code)

    def test_history_and_replay_need_a_config_file(self):
        for argv in (['history', 'q'], ['replay', 'q', '--since', '1',
                                        '--until', '2']):
            error = self.assertRaises(SystemExit, manage.main,
                                      ['--uri', 'redis://x'] + argv,
                                      out=io.StringIO())
            self.assertEqual(2, error.code)

    def test_replay_needs_a_time_range_and_times_parse(self):
        for argv in (['replay', 'q'],
                     ['history', 'q', '--since', 'yesterday']):
            error = self.assertRaises(SystemExit, manage.main,
                                      ['--config-file', 'z.conf'] + argv,
                                      out=io.StringIO())
            self.assertEqual(2, error.code)
