"""``zaqar-delay-manage`` on queues and projects that do not exist, or
that record nothing: an error that says so, never an empty answer."""

import io

import fixtures
import requests
import testtools

from zaqar_delay.cmd import manage
from zaqar_delay.dev import stack

PROJECT = 'tenant.a'
HEADERS = {'Client-ID': '6f5c2e8a-3b1d-4c7e-9a2f-1d8b7e6c5a43',
           'X-Project-ID': PROJECT}


class QueuesTest(testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.stack = stack.Stack(pushes=True).start()
        for name, metadata in (('plain.q', {}),
                               ('kept.q', {'_history_ttl': 600})):
            reply = requests.put(
                '%s/v2/queues/%s' % (cls.stack.url, name), json=metadata,
                headers=HEADERS, timeout=30)
            reply.raise_for_status()

    @classmethod
    def tearDownClass(cls):
        cls.stack.cleanup()
        super().tearDownClass()

    def manage(self, *argv):
        """(status, stdout, stderr) of ``zaqar-delay-manage argv``."""
        out, err = io.StringIO(), io.StringIO()
        with fixtures.MonkeyPatch('sys.stderr', err):
            status = manage.main(['--config-file', self.stack.conf] +
                                 list(argv), out=out)
        return status, out.getvalue(), err.getvalue()

    def fails(self, status, *argv):
        code, out, err = self.manage(*argv)
        self.assertEqual((status, ''), (code, out), err)
        line, = err.splitlines()
        return line

    def test_a_queue_without_project_asks_for_it(self):
        for command in ('history', 'schedules'):
            self.assertIn("give --project: there is no queue 'plain.q' "
                          "without a project",
                          self.fails(2, command, 'plain.q'))

    def test_an_unknown_queue(self):
        for argv in (['history', 'nope'],
                     ['schedules', 'nope'],
                     ['replay', 'nope', '--since', '0', '--until', '1'],
                     ['export', '--queue', 'nope']):
            self.assertEqual(
                "zaqar-delay-manage: project 'tenant.a' has no queue "
                "'nope'", self.fails(1, *argv, '--project', PROJECT))

    def test_an_unknown_project(self):
        for argv in (['history', 'plain.q'], ['schedules', 'plain.q'],
                     ['export']):
            self.assertEqual(
                "zaqar-delay-manage: project 'nobody' has no queues",
                self.fails(1, *argv, '--project', 'nobody'))

    def test_a_queue_that_keeps_no_history(self):
        self.assertIn("queue 'plain.q' of project 'tenant.a' keeps no "
                      "history: set its _history_ttl",
                      self.fails(1, 'history', 'plain.q', '--project',
                                 PROJECT))

    def test_a_queue_that_keeps_history_but_has_none_yet(self):
        self.assertEqual((0, '', '0 events\n'), self.manage(
            'history', 'kept.q', '--project', PROJECT))

    def test_a_queue_without_schedules(self):
        self.assertIn("queue 'plain.q' of project 'tenant.a' has no "
                      "schedules", self.fails(1, 'schedules', 'plain.q',
                                              '--project', PROJECT))
