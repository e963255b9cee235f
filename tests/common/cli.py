"""The ``openstack messaging`` commands a user types, against a real
zaqar-server that authenticates with a real Keystone.

One suite, mixed into a test class per backend. Every command is a
separate ``openstack`` process, as at a shell.
"""

import json
import os
import subprocess
import sys
import time
import uuid

from tests.fixtures import openstack
from tests.fixtures import services
from tests.fixtures import zaqar_server

USERS = ('cli-alice', 'cli-bob')


def _users(keystone):
    """Two users, each with a project of their own (made once)."""
    if not getattr(keystone, 'cli_users', None):
        keystone.cli_users = {name: keystone.user(name, name + '-project')
                              for name in USERS}
    return keystone.cli_users


class CliServer(zaqar_server.StoreServer):
    """A keystone-auth zaqar-server of ``store`` for the class, and
    ``openstack messaging`` commands against it."""
    delay = 3   # seconds; each command is a process of 2-5 s

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.keystone = services.keystone()
        cls.passwords = _users(cls.keystone)
        cls.stack = cls.start_server(max_delay=3600,
                                     keystone=cls.keystone.zaqar_auth())
        cls.keystone.point('messaging', cls.stack.url, 'zaqar')

    @classmethod
    def tearDownClass(cls):
        cls.stack.cleanup()
        super().tearDownClass()

    def setUp(self):
        super().setUp()
        self.queue = 'cli-' + uuid.uuid4().hex[:8]

    def openstack(self, *argv, user=USERS[0], fails=False):
        env = dict(os.environ, OS_AUTH_URL=self.keystone.keystone + '/v3',
                   OS_USERNAME=user, OS_PASSWORD=self.passwords[user],
                   OS_PROJECT_NAME=user + '-project',
                   OS_USER_DOMAIN_ID='default',
                   OS_PROJECT_DOMAIN_ID='default',
                   OS_REGION_NAME=openstack.REGION,
                   OS_IDENTITY_API_VERSION='3',
                   OS_MESSAGE_CLIENT_ID=str(uuid.uuid4()))
        command = os.path.join(os.path.dirname(sys.executable), 'openstack')
        proc = subprocess.run([command, 'messaging'] + list(argv), env=env,
                              capture_output=True, text=True, timeout=120)
        if fails:
            self.assertNotEqual(0, proc.returncode, proc.stdout)
            return proc.stderr
        self.assertEqual(0, proc.returncode, proc.stderr)
        return json.loads(proc.stdout) if '-f' in argv else proc.stdout

    def bodies(self, rows, key='Body'):
        return sorted(row[key] for row in rows)


class OpenstackCliTests(CliServer):

    def test_a_delayed_queue_at_the_command_line(self):
        self.openstack('queue', 'create', self.queue)
        self.openstack('queue', 'set', 'metadata', self.queue, json.dumps(
            {'_default_message_delay': 3600}))
        self.openstack('message', 'post', self.queue, json.dumps(
            [{'body': 'later', 'ttl': 7200},
             {'body': 'now', 'ttl': 300, 'delay': 0}]))
        claimed = self.openstack('claim', 'create', self.queue, '--limit',
                                 '10', '-f', 'json')
        self.assertEqual(['now'], self.bodies(claimed, 'Messages'))
        listed = self.openstack('message', 'list', self.queue, '--echo',
                                '--include-delayed', '-f', 'json')
        self.assertEqual(['later'], self.bodies(listed))
        stats = self.openstack('queue', 'stats', self.queue, '-f', 'json')
        counts = stats['Stats']['messages']
        self.assertEqual((2, 1, 1), (counts['total'], counts['claimed'],
                                     counts['delayed']))
        # A short delay comes due: claim until it comes, never before.
        posting = time.time()
        self.openstack('message', 'post', self.queue, json.dumps(
            [{'body': 'soon', 'ttl': 300, 'delay': self.delay}]))
        deadline = time.time() + self.delay + 60
        while not claimed or claimed[0]['Messages'] != 'soon':
            self.assertLess(time.time(), deadline, 'soon never came')
            claimed = self.openstack('claim', 'create', self.queue,
                                     '--limit', '10', '-f', 'json')
        self.assertEqual(['soon'], self.bodies(claimed, 'Messages'))
        self.assertGreaterEqual(time.time(), posting + self.delay)

    def test_bad_input_is_refused_with_a_reason(self):
        self.openstack('queue', 'create', self.queue)
        errors = [
            self.openstack('queue', 'set', 'metadata', self.queue,
                           '{"_default_message_delay": "soon"}', fails=True),
            self.openstack('queue', 'set', 'metadata', self.queue,
                           '{"_default_message_delay": 7200}', fails=True),
        ]
        self.openstack('queue', 'set', 'metadata', self.queue,
                       '{"_default_message_delay": 60}')
        errors += [
            self.openstack('message', 'post', self.queue,
                           '[{"body": 1, "ttl": 300, "delay": -1}]',
                           fails=True),
            self.openstack('message', 'post', self.queue,
                           '[{"body": 1, "ttl": 100, "delay": 200}]',
                           fails=True),
        ]
        reasons = ['_default_message_delay must be integer',
                   'can not exceed 3600 seconds',
                   'must be at least 0 seconds',
                   'ttl longer than its delay']
        for error, reason in zip(errors, reasons):
            self.assertIn('Code: 400', error)
            self.assertIn(reason, error)
            self.assertNotIn('Traceback', error)

    def test_projects_do_not_see_each_other(self):
        self.openstack('queue', 'create', self.queue)
        self.openstack('message', 'post', self.queue,
                       '[{"body": "mine", "ttl": 300}]')
        self.openstack('queue', 'create', self.queue, user=USERS[1])
        stats = self.openstack('queue', 'stats', self.queue, '-f', 'json',
                               user=USERS[1])
        self.assertEqual(0, stats['Stats']['messages']['total'])
        self.assertEqual([], self.openstack(
            'message', 'list', self.queue, '--include-delayed', '-f',
            'json', user=USERS[1]))


class WaitingCommands(CliServer):
    """``openstack messaging message show|reschedule|move`` (zaqar-delay's
    commands) against a ``wsgi.delay`` server, and a post with a due
    time through the stock ``message post`` (its ``--due``, zaqar-delay's
    hook)."""

    @classmethod
    def stack_options(cls):
        return dict(super().stack_options(), wsgi_delay=True)

    def test_see_reschedule_and_move_waiting_messages(self):
        self.openstack('queue', 'create', self.queue)
        self.openstack('queue', 'set', 'metadata', self.queue, json.dumps(
            {'_default_message_delay': 600}))
        due = time.strftime('%Y-%m-%dT%H:%M:%S.250Z',
                            time.gmtime(time.time() + 900))
        self.openstack('message', 'post', self.queue, json.dumps(
            [{'body': 'at a time', 'ttl': 3600}]), '--due', due)
        self.openstack('message', 'post', self.queue, json.dumps(
            [{'body': 'later', 'ttl': 3600}]))
        # A message with a time of its own and --due: refused, unsent.
        error = self.openstack('message', 'post', self.queue, json.dumps(
            [{'body': 'twice', 'ttl': 3600, 'delay': 5}]), '--due', due,
            fails=True)
        self.assertIn('message 0 has its own delay', error)
        listed = self.openstack('message', 'list', self.queue, '--echo',
                                '--include-delayed', '-f', 'json')
        ids = {row['Body']: row['ID'] for row in listed}
        shown = self.openstack('message', 'show', self.queue,
                               ids['at a time'], '-f', 'json')
        self.assertEqual(due, shown['due'])
        now = self.openstack('message', 'reschedule', self.queue,
                             ids['later'], '--delay', '0', '-f', 'json')
        self.assertLessEqual(now['due'], time.strftime(
            '%Y-%m-%dT%H:%M:%S.999Z', time.gmtime()))
        claimed = self.openstack('claim', 'create', self.queue, '--limit',
                                 '10', '-f', 'json')
        self.assertEqual(['later'], self.bodies(claimed, 'Messages'))
        moved = self.openstack('message', 'move', self.queue, '--to',
                               self.queue + '-dlq', '--id',
                               ids['at a time'], '-f', 'json')
        self.assertEqual([ids['at a time']], [m['From'] for m in moved])
        there = self.openstack('message', 'list', self.queue + '-dlq',
                               '--echo', '--include-delayed', '-f', 'json')
        self.assertEqual(['at a time'], self.bodies(there))

    def test_another_project_cannot_see_or_steer_them(self):
        self.openstack('queue', 'create', self.queue)
        self.openstack('message', 'post', self.queue,
                       '[{"body": "mine", "ttl": 300, "delay": 0}]')
        (mine,) = self.openstack('message', 'list', self.queue, '--echo',
                                 '-f', 'json')
        for argv in (('show', self.queue, mine['ID']),
                     ('reschedule', self.queue, mine['ID'], '--delay',
                      '60')):
            error = self.openstack('message', *argv, user=USERS[1],
                                   fails=True)
            self.assertIn('Code: 404', error)
        self.assertEqual(['mine'], self.bodies(self.openstack(
            'message', 'list', self.queue, '--echo', '-f', 'json')))
