import io
import json
import os
import tempfile

from tests.unit.pipeline import base
from zaqar_delay.pipeline.jobs import audit
from zaqar_delay.pipeline import schemas
from zaqar_delay.pipeline.transforms import history as history_transform

SNAPSHOT = base.SNAPSHOT


class AuditJobTest(base.SparkTestCase):

    def test_writes_tables_summary_and_plot(self):
        out = tempfile.mkdtemp(prefix='zaqar-delay-audit-')
        text = audit.run(self.spark, self.frame(SNAPSHOT, schemas.SNAPSHOT),
                         out, hours=1)
        for name in ('queues', 'forecast', 'lateness', 'never_deliverable',
                     'early_claims'):
            self.assertTrue(os.path.isdir(os.path.join(out, name)), name)
        self.assertEqual(3, self.spark.read.parquet(
            os.path.join(out, 'forecast')).count())
        for picture in ('forecast.png', 'lateness.png'):
            with open(os.path.join(out, picture), 'rb') as png:
                self.assertEqual(b'\x89PNG', png.read(4))
        self.assertEqual(2, sum(r['claims'] for r in self.spark.read.parquet(
            os.path.join(out, 'lateness')).collect()))
        with open(os.path.join(out, 'summary.txt')) as summary:
            self.assertEqual(text, summary.read())
        self.assertIn('10 messages in 2 queues: 6 delayed, 3 claimed', text)
        self.assertIn('coming due in the next 1 hours: 4', text)
        self.assertIn('never deliverable (ttl ends before the delay): 1',
                      text)
        self.assertIn('claimed before due: 1', text)


class HistoryAuditJobTest(base.SparkTestCase):

    def test_true_lateness_tables_summary_and_picture(self):
        from tests.unit.pipeline.transforms import test_history
        out = tempfile.mkdtemp(prefix='zaqar-delay-audit-history-')
        text = audit.run_history(self.spark, self.frame(
            test_history.HISTORY, schemas.HISTORY), out)
        for name in ('history_queues', 'retries', 'early_deliveries',
                     'lateness_over_time', 'lateness_over_time_all'):
            self.assertTrue(os.path.isdir(os.path.join(out, name)), name)
        with open(os.path.join(out, 'lateness_over_time.png'), 'rb') as png:
            self.assertEqual(b'\x89PNG', png.read(4))
        with open(os.path.join(out, 'history_summary.txt')) as summary:
            self.assertEqual(text, summary.read())
        self.assertIn('13 messages posted in 2 queues: 12 delivered', text)
        self.assertIn('delivered before due: 1', text)
        self.assertIn('claims: 14 on 11 messages, 2 claimed more than once',
                      text)
        q1, = [line.split() for line in text.splitlines()
               if line.startswith('p1/q.1')]
        # posted delivered early p50 p90 p99 max claims/msg retried;
        # 12 claims on 9 messages.
        self.assertEqual(['11', '10', '0', '5.0s', '20.0s', '60.0s',
                          '60.0s', '1.33', '2'], q1[1:])
        # Deliveries span T0 + 9 to T0 + 120: 1 s buckets.
        starts = self.spark.read.parquet(os.path.join(
            out, 'lateness_over_time_all')).select('start').collect()
        self.assertEqual(12, len(starts))

    def test_the_export_json_lines_are_read_with_their_types(self):
        from tests.unit.pipeline.transforms import test_history
        out = tempfile.mkdtemp(prefix='zaqar-delay-audit-history-')
        path = os.path.join(out, 'history.jsonl')
        names = [f.name for f in schemas.HISTORY.fields]
        with open(path, 'w') as f:
            for row in test_history.HISTORY:
                f.write(json.dumps(dict(zip(names, row))) + '\n')
        history = audit._read(self.spark, [path], 'json', schemas.HISTORY,
                              history_transform.COLUMNS)
        text = audit.run_history(self.spark, history,
                                 os.path.join(out, 'report'))
        self.assertIn('13 messages posted in 2 queues: 12 delivered', text)

    def test_needs_a_snapshot_or_a_history(self):
        error = self.assertRaises(SystemExit, audit.main, ['--out', 'x'],
                                  out=io.StringIO())
        self.assertEqual(2, error.code)

    def test_an_input_of_unknown_format_is_a_usage_error(self):
        # Its format is guessed from its name before Spark starts.
        error = self.assertRaises(SystemExit, audit.main,
                                  ['snapshot.txt', '--out', 'x'],
                                  out=io.StringIO())
        self.assertEqual(2, error.code)
