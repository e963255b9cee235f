"""The console scripts fail fast and say why: one line on stderr, exit
status 2 for a usage error and 1 otherwise, and no traceback."""

import os
import socket

import fixtures
from oslo_config import cfg
import testtools

from tests.functional import cmd
from zaqar_delay.dev import ports

# The commands wait at most reach.TIMEOUT (5 s) for a store; the rest
# is starting Python and importing Zaqar, a few seconds on a busy
# machine. pymongo alone would wait 30 s.
FAST = 20

CONF = """[DEFAULT]
pooling = False
unreliable = True
[drivers]
message_store = {store}
management_store = redis
[drivers:message_store:redis]
uri = redis://127.0.0.1:{port}?dbid=0
[drivers:message_store:mongodb]
uri = mongodb://127.0.0.1:{port}
[drivers:management_store:redis]
uri = redis://127.0.0.1:{port}?dbid=1
[storage]
message_pipeline = zaqar_delay.notification.notifier
"""


class FailureTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.folder = self.useFixture(fixtures.TempDir()).path

    def fails(self, status, name, *argv, **kwargs):
        """The one line ``name argv`` wrote to stderr, exiting
        ``status`` within FAST seconds."""
        done, seconds = cmd.run(name, *argv, **kwargs)
        lines = done.stderr.splitlines()
        self.assertEqual(status, done.returncode, done.stderr)
        self.assertEqual(1, len(lines), done.stderr)
        self.assertTrue(lines[0].startswith(name + ': '), lines)
        self.assertLess(seconds, FAST)
        return lines[0]

    def conf(self, store):
        """A zaqar.conf whose stores are on a port nothing listens on."""
        path = os.path.join(self.folder, store + '.conf')
        with open(path, 'w') as f:
            f.write(CONF.format(store=store, port=ports.free_port()))
        return path

    def test_a_missing_config_file(self):
        missing = os.path.join(self.folder, 'missing.conf')
        for name, argv in (
                ('zaqar-delay-manage', ['history', 'q', '--project', 'p']),
                ('zaqar-delay-manage', ['pushes', 'pending']),
                ('zaqar-delay-exporter', []),
                ('zaqar-delay-dispatcher', ['--once'])):
            self.assertIn(missing, self.fails(
                1, name, '--config-file', missing, *argv))

    def test_no_config_file_at_all(self):
        home = self.useFixture(fixtures.TempDir()).path
        self.useFixture(fixtures.EnvironmentVariable('HOME', home))
        for name in ('zaqar-delay-exporter', 'zaqar-delay-dispatcher'):
            # Where oslo.config looks (~/.zaqar, ~, /etc/zaqar, /etc).
            self.assertEqual([], cfg.find_config_files('zaqar', name))
            self.assertIn('give --config-file',
                          self.fails(2, name, env=dict(os.environ)))

    def test_a_config_file_that_names_no_store(self):
        # Zaqar's defaults: mongodb stores, without a uri: pymongo's
        # localhost:27017.
        with socket.socket() as probe:
            if probe.connect_ex(('127.0.0.1', 27017)) == 0:
                self.skipTest('a server listens on localhost:27017')
        empty = os.path.join(self.folder, 'empty.conf')
        open(empty, 'w').close()
        for name, argv in (
                ('zaqar-delay-manage', ['schedules']),
                ('zaqar-delay-exporter', []),
                ('zaqar-delay-dispatcher', ['--once'])):
            self.assertIn('cannot reach the message store (mongodb) at '
                          'mongodb://localhost:27017',
                          self.fails(1, name, '--config-file', empty, *argv))

    def test_a_redis_store_that_does_not_answer(self):
        conf = self.conf('redis.delay')
        for name, argv in (
                ('zaqar-delay-manage', ['history', 'q', '--project', 'p']),
                ('zaqar-delay-manage', ['schedules']),
                ('zaqar-delay-manage', ['redis', 'migrate', '--to',
                                        'redis.delay', '--dry-run']),
                ('zaqar-delay-exporter', []),
                ('zaqar-delay-dispatcher', ['--once'])):
            self.assertIn('cannot reach the message store (redis.delay)',
                          self.fails(1, name, '--config-file', conf, *argv))

    def test_a_mongodb_store_that_does_not_answer(self):
        conf = self.conf('mongodb.delay')
        for argv in (['export', '--project', 'p'], ['pushes', 'failed'],
                     ['mongodb', 'migrate', '--to', 'mongodb.delay']):
            self.assertIn('cannot reach the message store (mongodb.delay) '
                          'at mongodb://127.0.0.1:',
                          self.fails(1, 'zaqar-delay-manage',
                                     '--config-file', conf, *argv))
