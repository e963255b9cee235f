"""The schedule job on the local Spark session, posting to a scripted
Zaqar API: columns by name, the exit status and each run's rejects."""

import io
import json
import os
import shutil
import tempfile

from tests.unit.pipeline import base
from tests.unit.pipeline import zaqar_stub
from zaqar_delay.pipeline.jobs import schedule

DOC_ORDER = 'queue,body,ttl,delay,deliver_at,project'   # pipeline.rst's
SHUFFLED = 'project,delay,body,queue,deliver_at,ttl'
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
        """The exit status, standard output and error of a run."""
        out, err = io.StringIO(), io.StringIO()
        args = schedule.parser().parse_args(
            list(argv) + ['--url', self.zaqar.url, '--rejects', self.rejects,
                          '--project', 'p0', '--progress-interval', '60'])
        return schedule.schedule(self.spark, args, out, err), \
            out.getvalue(), err.getvalue()

    def posted(self):
        return sorted((project, path, m['body'], m.get('delay'))
                      for path, project, batch in self.zaqar.seen
                      for m in batch)

    def test_csv_columns_are_matched_by_header_name(self):
        for header in (DOC_ORDER, SHUFFLED):
            del self.zaqar.seen[:]
            code, out, err = self.schedule(
                self.write_csv(header + '.csv', header, ROWS))
            self.assertEqual((0, ''), (code, err), out)
            self.assertEqual(
                [('tenant.a', '/v2/queues/orders/messages', {'n': 1}, 30),
                 ('tenant.b', '/v2/queues/q.2/messages', 'plain', None)],
                self.posted())
            self.assertIn('posted 2 messages', out)

    def test_parquet_and_json_columns_in_any_order(self):
        # Typed as the job's schema, columns in SHUFFLED's order.
        rows = [(r['project'], int(r['delay']) if r['delay'] else None,
                 r['body'], r['queue'], int(r['ttl']) if r['ttl'] else None)
                for r in ROWS]
        parquet = os.path.join(self.dir, 'shuffled.parquet')
        self.spark.createDataFrame(rows, 'project string, delay int, '
                                   'body string, queue string, '
                                   'ttl int').write.parquet(parquet)
        jsonl = os.path.join(self.dir, 'shuffled.jsonl')
        with open(jsonl, 'w') as f:
            for project, delay, body, queue, ttl in rows:
                f.write(json.dumps({'project': project, 'delay': delay,
                                    'body': body, 'queue': queue,
                                    'ttl': ttl}) + '\n')
        for path in (parquet, jsonl):
            del self.zaqar.seen[:]
            code, out, err = self.schedule(path)
            self.assertEqual((0, ''), (code, err), out)
            self.assertEqual(
                [('tenant.a', '/v2/queues/orders/messages', {'n': 1}, 30),
                 ('tenant.b', '/v2/queues/q.2/messages', 'plain', None)],
                self.posted(), path)

    def test_wrong_columns_stop_the_job_before_it_posts(self):
        bad_csv = self.write_csv('bad.csv', DOC_ORDER.replace(
            'project', 'projet'), [dict(ROWS[0], projet='x')])
        no_body = os.path.join(self.dir, 'no-body.jsonl')
        with open(no_body, 'w') as f:
            f.write(json.dumps({'queue': 'q', 'ttl': 60}) + '\n')
        parquet = os.path.join(self.dir, 'extra.parquet')
        self.spark.createDataFrame([('x', 'q', 'b')], 'Delay string, '
                                   'queue string, body string').write.parquet(
            parquet)
        for path, problem in (
                (bad_csv, "the input has unknown column 'projet' (the "
                 "columns are project, queue, body, ttl, delay, "
                 "deliver_at; queue and body are required)"),
                (no_body, 'the input has no body column ('),
                (parquet, "the input has unknown column 'Delay' (")):
            code, out, err = self.schedule(path)
            self.assertEqual((2, ''), (code, out), path)
            self.assertTrue(err.startswith('zaqar-delay-schedule: ' +
                                           problem), err)
            self.assertEqual(1, len(err.splitlines()), err)
        self.assertEqual([], self.zaqar.requests)
        self.assertFalse(os.path.exists(self.rejects))

    def test_csv_files_with_unlike_headers_stop_the_job(self):
        code, out, err = self.schedule(
            self.write_csv('a.csv', DOC_ORDER, ROWS),
            self.write_csv('b.csv', SHUFFLED, ROWS))
        self.assertEqual((2, ''), (code, out))
        self.assertRegex(err, r'^zaqar-delay-schedule: file:\S*/b\.csv: its '
                         r'header differs from the first CSV file\'s .* '
                         r'\(nothing posted\)\n$')
        self.assertEqual([], self.zaqar.requests)
        self.assertEqual([], os.listdir(self.rejects))

    def test_rejects_exit_1_and_each_run_keeps_its_own(self):
        path = self.write_csv('in.csv', DOC_ORDER, ROWS + [
            dict(ROWS[0], delay='soon'),                  # invalid
            dict(ROWS[0], body='refuse me')])             # refused
        runs = []
        for _ in range(2):
            code, out, err = self.schedule(path)
            self.assertEqual((1, ''), (code, err), out)
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
        code, out, err = self.schedule(runs[0], '--format', 'json')
        self.assertEqual((1, ''), (code, err), out)
        self.assertIn('posted 0 messages', out)
        self.assertIn('rejected 2', out)
