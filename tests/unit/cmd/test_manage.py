import io
import os

import fixtures
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


class ManageConfigTest(testtools.TestCase):
    """A config file that cannot be read ends a command with one line
    and status 1, before any store is reached."""

    def setUp(self):
        super().setUp()
        self.folder = self.useFixture(fixtures.TempDir()).path

    def fails(self, conf, *argv):
        err = io.StringIO()
        with fixtures.MonkeyPatch('sys.stderr', err):
            self.assertEqual(1, manage.main(['--config-file', conf] +
                                            list(argv), out=io.StringIO()))
        lines = err.getvalue().splitlines()
        self.assertEqual(1, len(lines), lines)
        self.assertTrue(lines[0].startswith('zaqar-delay-manage: '), lines)
        return lines[0]

    def test_a_missing_config_file(self):
        missing = os.path.join(self.folder, 'missing.conf')
        for argv in (['history', 'q', '--project', 'p'],
                     ['schedules', 'q', '--project', 'p'],
                     ['pushes', 'pending'], ['export', '--project', 'p'],
                     ['redis', 'migrate', '--to', 'redis.delay']):
            self.assertIn(missing, self.fails(missing, *argv))

    def test_a_config_file_that_does_not_parse(self):
        broken = os.path.join(self.folder, 'broken.conf')
        with open(broken, 'w') as f:
            f.write('[drivers\nmessage_store = redis.delay\n')
        self.assertIn(broken, self.fails(broken, 'pushes', 'pending'))
