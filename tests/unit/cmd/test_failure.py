"""How a command ends when it cannot do what it was asked."""

import io
import subprocess
import sys

from oslo_config import cfg
import pymongo.errors
import redis.exceptions
import testtools
from zaqar.common import errors as zaqar_errors

from zaqar_delay.cmd import failure
from zaqar_delay import errors

# pymongo's text of a server selection that timed out, cut short.
SELECTION = ('127.0.0.1:1: [Errno 111] Connection refused (configured '
             'timeouts: socketTimeoutMS: 20000.0ms, connectTimeoutMS: '
             '20000.0ms), Timeout: 30s, Topology Description: <...>')


class RunTest(testtools.TestCase):

    def ends(self, exc):
        """(status, stderr) of a command that raised ``exc``."""
        err = io.StringIO()

        def command():
            raise exc

        return failure.run('prog', command, err=err), err.getvalue()

    def test_what_a_command_returns_is_its_status(self):
        self.assertEqual(3, failure.run('prog', lambda x: x, 3))

    def test_a_failure_is_one_line_and_status_1(self):
        self.assertEqual((1, 'prog: no such queue\n'),
                         self.ends(errors.CommandFailure('no such queue')))

    def test_a_usage_failure_exits_2_as_argparse_does(self):
        self.assertEqual((2, 'prog: give --project\n'),
                         self.ends(errors.UsageFailure('give --project')))

    def test_a_config_file_error_is_one_line(self):
        status, text = self.ends(cfg.ConfigFilesNotFoundError(['/x.conf']))
        self.assertEqual(1, status)
        self.assertEqual(['prog: Failed to find some config files: '
                          '/x.conf'], text.splitlines())

    def test_a_store_that_does_not_answer_is_one_line(self):
        for exc, said in (
                (redis.exceptions.ConnectionError('Error 111 connecting'),
                 'prog: cannot reach the store: Error 111 connecting\n'),
                (pymongo.errors.ServerSelectionTimeoutError(SELECTION),
                 'prog: cannot reach the store: 127.0.0.1:1: [Errno 111] '
                 'Connection refused\n'),
                (zaqar_errors.InvalidDriver('Error 111\nmore'),
                 'prog: cannot load the store: Error 111\n')):
            self.assertEqual((1, said), self.ends(exc))

    def test_a_command_without_a_mongodb_store_does_not_load_pymongo(self):
        # The dispatcher's module, as its console script imports it.
        loaded = subprocess.run(
            [sys.executable, '-c', 'import sys; '
             'import zaqar_delay.cmd.dispatcher; '
             'print(sorted(m for m in sys.modules if "pymongo" in m))'],
            capture_output=True, text=True, check=True).stdout
        self.assertEqual('[]\n', loaded)

    def test_anything_else_is_a_bug_and_keeps_its_traceback(self):
        self.assertRaises(KeyError, self.ends, KeyError('x'))
