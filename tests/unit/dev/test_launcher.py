import os
import signal
import subprocess
import sys

import testtools

from zaqar_delay.dev import launcher


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
        proc = launcher.spawn(argv, stdout=subprocess.PIPE)
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
