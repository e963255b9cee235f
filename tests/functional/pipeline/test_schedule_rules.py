"""``zaqar-delay-schedule``'s rules through the console command, on one
real zaqar-server (``redis.delay``) for the class: CSV columns matched
by header name, the exit status and each run's rejects, and the queues
the job makes delayed (no delayed row is ever posted to be claimed at
once)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from zaqarclient.queues import client

from tests.fixtures import zaqar_server

DOC_ORDER = 'queue,body,ttl,delay,deliver_at,project'   # pipeline.rst's
SHUFFLED = 'project,delay,body,queue,deliver_at,ttl'
# Far beyond the time from the job's posts to its exit, however busy the
# machine: a message that can be claimed right after the job was
# posted without its delay.
LONG = 600


def _command(name):
    return os.path.join(os.path.dirname(sys.executable), name)


class ScheduleRulesTest(zaqar_server.ServerTestCase):
    server_options = {'max_delay': 3600}

    def setUp(self):
        super().setUp()
        self.dir = tempfile.mkdtemp(prefix='zaqar-delay-schedule-rules-')
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.rejects = os.path.join(self.dir, 'rejects')

    def client(self, project):
        return client.Client(self.stack.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': project}}})

    def schedule(self, *argv, status):
        proc = subprocess.run(
            [_command('zaqar-delay-schedule'), '--url', self.stack.url,
             '--rejects', self.rejects] + list(argv),
            capture_output=True, text=True, timeout=300)
        self.assertEqual(status, proc.returncode, proc.stderr[-3000:])
        return proc.stdout

    def reasons(self, out):
        """The run's folder (from its summary) and its rejects' reasons."""
        folder = out.split('(see ')[1].split(')')[0]
        return folder, sorted(
            json.loads(line)['reason'] for name in os.listdir(folder)
            if name.endswith('.json')
            for line in open(os.path.join(folder, name)))

    def test_csv_by_header_name_exit_1_and_every_run_keeps_its_rejects(self):
        runs = []
        for n, header in enumerate((DOC_ORDER, SHUFFLED)):
            rows = [('csvq', json.dumps({'run': n}), '600', '0', '',
                     'tenant.a'),
                    ('csvq', 'run %d' % n, '', '0', '', 'tenant.b'),
                    ('csvq', 'bad', 'soon', '', '', 'tenant.a')]
            path = os.path.join(self.dir, 'in%d.csv' % n)
            with open(path, 'w') as f:
                f.write(header + '\n')
                for row in rows:
                    values = dict(zip(DOC_ORDER.split(','), row))
                    f.write(','.join(values[c] and '"%s"' % values[c]
                                     .replace('"', '""')
                                     for c in header.split(',')) + '\n')
            out = self.schedule(path, status=1)     # 1: a row rejected
            self.assertIn('posted 2 messages', out)
            self.assertIn('rejected 1 (see %s/run=' % self.rejects, out)
            self.assertIn('tenant.a/csvq: 1', out)
            self.assertIn('tenant.b/csvq: 1', out)
            runs.append(self.reasons(out))
        # Both runs' rejects are kept, each in its own folder.
        self.assertEqual(sorted(os.path.basename(f) for f, _ in runs),
                         sorted(os.listdir(self.rejects)))
        for _, reasons in runs:
            self.assertEqual(['ttl must be a whole number of seconds'],
                             reasons)
        # Every message is in the project and queue its row names.
        for project, bodies in (('tenant.a', [{'run': 0}, {'run': 1}]),
                                ('tenant.b', ['run 0', 'run 1'])):
            queue = self.client(project).queue('csvq')
            self.assertEqual(sorted(bodies, key=str), sorted(
                (m.body for m in zaqar_server.claim_all(queue)), key=str))

    def test_a_queue_the_job_makes_is_delayed(self):
        plain = self.client('tenant.a').queue('plain', force_create=True)
        # Two files, two partitions: both look 'made' up and may make it
        # at once.
        soon = time.time() + 3600
        paths = []
        for n, rows in enumerate((
                [{'queue': 'made', 'body': 'now', 'delay': 0},
                 {'queue': 'made', 'body': 'later', 'delay': LONG},
                 {'queue': 'made', 'body': 'by default'},
                 {'queue': 'plain', 'body': 'plain now'}],
                [{'queue': 'made', 'body': 'now 2', 'delay': 0},
                 {'queue': 'made', 'body': 'at', 'deliver_at': soon},
                 {'queue': 'plain', 'body': 'plain later',
                  'delay': LONG}])):
            paths.append(os.path.join(self.dir, 'in%d.jsonl' % n))
            with open(paths[-1], 'w') as f:
                f.writelines(json.dumps(row) + '\n' for row in rows)
        out = self.schedule(*paths, '--project', 'tenant.a',
                            '--queue-delay', str(LONG), status=1)
        made = self.client('tenant.a').queue('made')
        # Right away, only the rows posted with delay 0 can be claimed.
        self.assertEqual(['now', 'now 2'],
                         sorted(m.body for m in zaqar_server.claim_all(made)))
        self.assertEqual(['plain now'],
                         [m.body for m in zaqar_server.claim_all(plain)])
        self.assertEqual(LONG, made.metadata(
            force_reload=True)['_default_message_delay'])
        self.assertIn('posted 6 messages', out)
        self.assertIn('tenant.a/made: 5', out)
        self.assertIn('tenant.a/plain: 1', out)
        # The row delayed in a queue without a default delay is refused,
        # and that queue is left as it was.
        _, reasons = self.reasons(out)
        self.assertEqual(
            ['queue plain has no _default_message_delay, so Zaqar would '
             'drop this message\'s delay (%d s) and deliver it at once: '
             'set _default_message_delay on the queue (1 or more) and run '
             'the job again' % LONG], reasons)
        self.assertFalse(plain.metadata(force_reload=True).get(
            '_default_message_delay'))
