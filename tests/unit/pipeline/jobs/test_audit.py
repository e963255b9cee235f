import os
import tempfile

from tests.unit.pipeline import base
from zaqar_delay.pipeline.jobs import audit
from zaqar_delay.pipeline import schemas

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
