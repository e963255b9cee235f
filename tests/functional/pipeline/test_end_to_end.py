"""schedule -> claim -> export -> audit, on a real zaqar-server with
``redis.delay``, through the console commands an operator runs."""

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import testtools
from zaqarclient.queues import client

from tests.fixtures import spark_cluster
from tests.fixtures import zaqar_server
from zaqar_delay.cmd import manage

# Seconds; the test claims until everything deliverable has come, and
# checks that nothing came before its due time, however long posting took.
DELAY = 10
SLACK = 1.0     # Zaqar's clocks count whole seconds


def _command(name):
    return os.path.join(os.path.dirname(sys.executable), name)


JOBS = ('zaqar-delay-schedule', 'zaqar-delay-audit')


class PipelineEndToEndTest(testtools.TestCase):
    master = None   # the jobs' --master; None: local[*]

    def setUp(self):
        super().setUp()
        # ttl shorter than delay is accepted here, so that the audit has
        # never-deliverable messages to find.
        self.stack = zaqar_server.ZaqarServer(max_delay=3600,
                                              ttl_policy='accept').start()
        self.addCleanup(self.stack.cleanup)
        self.dir = tempfile.mkdtemp(prefix='zaqar-delay-e2e-')
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.cli = client.Client(self.stack.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': 'p1'}}})

    def run_command(self, *argv, status=0):
        if self.master and argv[0] in JOBS:
            argv += ('--master', self.master)
        proc = subprocess.run([_command(argv[0])] + list(argv[1:]),
                              capture_output=True, text=True, timeout=300)
        self.assertEqual(status, proc.returncode, proc.stderr[-3000:])
        return proc.stdout

    def write_input(self, rows):
        path = os.path.join(self.dir, 'deliveries.jsonl')
        with open(path, 'w') as f:
            for row in rows:
                f.write(json.dumps(row) + '\n')
        return path

    def test_schedule_claim_export_audit(self):
        for name in ('reminders', 'retries'):
            self.cli.queue(name, force_create=True).metadata(
                new_meta={'_default_message_delay': DELAY})
        soon = time.time() + DELAY
        rows = (
            [{'queue': 'reminders', 'body': {'user': i}, 'ttl': 600,
              'delay': 0} for i in range(30)] +
            [{'queue': 'reminders', 'body': {'user': i}, 'ttl': 600,
              'deliver_at': soon} for i in range(30, 55)] +
            [{'queue': 'retries', 'body': 'retry %d' % i, 'ttl': 600}
             for i in range(20)] +                          # queue default
            [{'queue': 'retries', 'body': 'in an hour', 'ttl': 7200,
              'delay': 3000}] * 4 +
            [{'queue': 'retries', 'body': 'never', 'ttl': 600,
              'delay': 1200}] * 2 +                         # ttl < delay
            [{'queue': 'bad name', 'body': 1, 'ttl': 600},
             {'queue': 'retries', 'body': 2, 'delay': 5,
              'deliver_at': soon},
             {'queue': 'retries', 'body': 3, 'delay': 99999}])  # > max
        path = self.write_input(rows)
        rejects = os.path.join(self.dir, 'rejects')
        out = self.run_command(
            'zaqar-delay-schedule', path, '--url', self.stack.url,
            '--project', 'p1', '--rejects', rejects, '--batch-size', '7',
            '--partitions', '3', status=1)      # 1: rows were rejected
        posted_at = time.time()
        self.assertIn('posted 81 messages', out)
        self.assertIn('rejected 3 (see %s/run=' % rejects, out)
        (run,) = os.listdir(rejects)
        self.assertIn('p1/reminders: 55', out)
        self.assertIn('p1/retries: 26', out)
        reasons = sorted(json.loads(line)['reason']
                         for name in os.listdir(os.path.join(rejects, run))
                         if name.endswith('.json')
                         for line in open(os.path.join(rejects, run, name)))
        self.assertEqual(3, len(reasons))
        self.assertIn('give delay or deliver_at, not both', reasons)
        self.assertTrue(any('queue name must be' in r for r in reasons))
        self.assertTrue(any(r.startswith('refused by the server (400)')
                            for r in reasons), reasons)

        # The delays hold: claim until the 75 deliverable messages have
        # come; none comes before it is due.
        queues = {n: self.cli.queue(n) for n in ('reminders', 'retries')}
        came = {'reminders': [], 'retries': []}
        deadline = max(soon, posted_at + DELAY) + 60
        while (sum(map(len, came.values())) < 75 and
               time.time() < deadline):
            for name, queue in queues.items():
                for msg in zaqar_server.claim_all(queue):
                    came[name].append((time.time(), msg))
            time.sleep(0.5)
        users = {m.body['user']: at for at, m in came['reminders']}
        self.assertEqual(set(range(55)), set(users))
        for user in range(30, 55):          # deliver_at = soon
            self.assertGreaterEqual(users[user], soon - SLACK, user)
        retries = [m for _, m in came['retries']]
        self.assertEqual(sorted('retry %d' % i for i in range(20)),
                         sorted(m.body for m in retries))
        for msg in retries:                 # the queue's default delay
            self.assertGreaterEqual(msg.age, DELAY - SLACK, msg.body)

        snapshot = os.path.join(self.dir, 'snapshot.jsonl')
        self.assertEqual(0, manage.main(
            ['--config-file', self.stack.conf, 'export', '--project', 'p1',
             '--output', snapshot], out=io.StringIO()))
        report = os.path.join(self.dir, 'report')
        summary = self.run_command('zaqar-delay-audit', snapshot, '--out',
                                   report, '--hours', '1')
        self.assertIn('81 messages in 2 queues: 6 delayed, 75 claimed',
                      summary)
        self.assertIn('coming due in the next 1 hours: 4', summary)
        self.assertIn('never deliverable (ttl ends before the delay): 2',
                      summary)
        self.assertIn('claimed before due: 0', summary)
        self.assertTrue(os.path.exists(os.path.join(report, 'forecast.png')))
        lines = [line for line in summary.splitlines()
                 if line.startswith('p1/')]
        self.assertEqual(['p1/reminders', 'p1/retries'],
                         [line.split()[0] for line in lines])
        # Lateness is known for every claimed message and none is early.
        self.assertNotIn(' - ', lines[0])

    def test_a_job_run_again_posts_nothing_twice(self):
        queue = self.cli.queue('jobs', force_create=True)
        queue.metadata(new_meta={'_dedup_key': 'job'})
        path = self.write_input(
            [{'queue': 'jobs', 'body': {'job': i % 25}, 'ttl': 600,
              'delay': 0} for i in range(30)])     # 5 values twice
        rejects = os.path.join(self.dir, 'rejects')

        def schedule():
            return self.run_command(
                'zaqar-delay-schedule', path, '--url', self.stack.url,
                '--project', 'p1', '--rejects', rejects, '--batch-size',
                '7', '--partitions', '2')

        first = schedule()
        self.assertIn('posted 25 messages', first)
        self.assertIn('duplicates: 5', first)
        again = schedule()      # as if the first run had died
        self.assertIn('posted 0 messages', again)
        self.assertIn('duplicates: 30', again)
        self.assertEqual(25, queue.stats['messages']['total'])


class PipelineOnStandaloneClusterTest(PipelineEndToEndTest):
    """The same jobs with ``--master spark://...``: a Spark standalone
    master and two one-core workers on loopback."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.cluster = spark_cluster.SparkCluster(workers=2).start()
        cls.master = cls.cluster.master

    @classmethod
    def tearDownClass(cls):
        cls.cluster.cleanup()
        super().tearDownClass()

    # Run once, with the local master, above.
    test_a_job_run_again_posts_nothing_twice = None
