"""The schedule job on the local Spark session, posting to a scripted
Zaqar API: the exit status and each run's rejects."""

import io
import json
import os
import shutil
import tempfile

from tests.unit.pipeline import base
from tests.unit.pipeline import zaqar_stub
from zaqar_delay.pipeline.jobs import schedule
from zaqar_delay.pipeline import schemas

HEADER = ','.join(schemas.SCHEDULE_COLUMNS)
ROWS = [
    {'queue': 'orders', 'body': '{"n": 1}', 'ttl': '600', 'delay': '30',
     'deliver_at': '', 'project': 'tenant.a'},
    {'queue': 'q.2', 'body': 'plain', 'ttl': '', 'delay': '',
     'deliver_at': '', 'project': 'tenant.b'},
]


class ScheduleJobTest(base.SparkTestCase):

    def setUp(self):
        super().setUp()
        self.dir = tempfile.mkdtemp(prefix='zaqar-delay-schedule-')
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.zaqar = zaqar_stub.serve(self, self.answer)
        self.rejects = os.path.join(self.dir, 'rejects')

    def answer(self, messages):
        if any(m['body'] == 'refuse me' for m in messages):
            return 400, {'description': 'no, thanks'}
        return 201, {'resources': []}

    def write_csv(self, name, header, rows):
        path = os.path.join(self.dir, name)
        with open(path, 'w') as f:
            f.write(header + '\n')
            for row in rows:
                f.write(','.join('"%s"' % row[c].replace('"', '""')
                                 for c in header.split(',')) + '\n')
        return path

    def schedule(self, *argv):
        """The exit status and standard output of a run."""
        out = io.StringIO()
        args = schedule.parser().parse_args(
            list(argv) + ['--url', self.zaqar.url, '--rejects', self.rejects,
                          '--project', 'p0', '--progress-interval', '60'])
        return schedule.schedule(self.spark, args, out), out.getvalue()

    def test_rejects_exit_1_and_each_run_keeps_its_own(self):
        path = self.write_csv('in.csv', HEADER, ROWS + [
            dict(ROWS[0], delay='soon'),                  # invalid
            dict(ROWS[0], body='refuse me')])             # refused
        runs = []
        for _ in range(2):
            code, out = self.schedule(path)
            self.assertEqual(1, code, out)
            self.assertIn('posted 2 messages', out)
            folder = out.split('(see ')[1].split(')')[0]
            self.assertIn('rejected 2 (see %s)' % folder, out)
            runs.append(folder)
        self.assertEqual(self.rejects, os.path.dirname(runs[0]))
        self.assertRegex(os.path.basename(runs[0]),
                         r'^run=\d{8}T\d{6}Z-[0-9a-f]{6}$')
        self.assertEqual(sorted(os.path.basename(r) for r in runs),
                         sorted(os.listdir(self.rejects)))
        for folder in runs:
            reasons = sorted(
                json.loads(line)['reason'] for name in os.listdir(folder)
                if name.endswith('.json')
                for line in open(os.path.join(folder, name)))
            self.assertEqual(
                ['delay must be a whole number of seconds, 0 or more',
                 'refused by the server (400): no, thanks'], reasons)
        # A run's rejects are an input: posted again, refused again.
        del self.zaqar.seen[:]
        code, out = self.schedule(runs[0], '--format', 'json')
        self.assertEqual(1, code, out)
        self.assertIn('posted 0 messages', out)
        self.assertIn('rejected 2', out)
