import datetime
import os
import tempfile

from tests.unit.pipeline import base
from zaqar_delay.pipeline import audit
from zaqar_delay.pipeline import auditing
from zaqar_delay.pipeline import schemas

NOW = 1795334400.0          # 2026-11-22 08:00:00 UTC, a minute boundary


def msg(mid, queue='q1', created=NOW - 100, ttl=3600, due=None,
        claimed_at=None, project='p1'):
    return (project, queue, mid, created, ttl, created + ttl, due,
            None if due is None else due - created,
            'c1' if claimed_at else None, claimed_at,
            claimed_at and claimed_at + 60, 1 if claimed_at else 0, NOW)


SNAPSHOT = [
    msg('ready'),                                         # no due time
    msg('due-soon', due=NOW + 30),
    msg('due-soon-2', due=NOW + 50),
    msg('due-later', due=NOW + 3 * 60 + 1),
    msg('beyond', due=NOW + 7200, ttl=9000),              # past the horizon
    msg('never', due=NOW + 600, ttl=300),                 # ttl < delay
    msg('late', due=NOW - 50, claimed_at=NOW - 40),       # 10 s late
    msg('later', due=NOW - 90, claimed_at=NOW - 60),      # 30 s late
    msg('early', due=NOW + 100, claimed_at=NOW - 5),      # 105 s early
    msg('other', queue='q2', project='p2', due=NOW + 30),
]


class AuditTransformsTest(base.SparkTestCase):

    def setUp(self):
        super().setUp()
        self.prepared = auditing.prepare(
            self.frame(SNAPSHOT, schemas.SNAPSHOT))

    def test_per_queue_counts_and_lateness(self):
        rows = {(r['project'], r['queue']): r.asDict() for r in
                auditing.queues(self.prepared, NOW).collect()}
        q1 = rows[('p1', 'q1')]
        self.assertEqual(
            (9, 5, 3, 1, 1, 2),
            (q1['messages'], q1['delayed'], q1['claimed'],
             q1['never_deliverable'], q1['early_claims'],
             q1['claims_timed']))
        self.assertEqual((10.0, 30.0, 30.0), (
            q1['lateness_p50'], q1['lateness_p90'], q1['lateness_p99']))
        self.assertEqual(NOW + 30, q1['next_due'])
        p2 = rows[('p2', 'q2')]
        self.assertEqual((1, 1, 0, None), (p2['messages'], p2['delayed'],
                                           p2['claimed'], p2['lateness_p50']))

    def test_forecast_per_minute_within_the_horizon(self):
        rows = sorted((r['project'], r['queue'], r['minute'], r['due'])
                      for r in auditing.forecast(self.prepared, NOW,
                                                 1).collect())
        at = datetime.datetime.fromtimestamp(NOW)
        minute = datetime.timedelta(minutes=1)
        self.assertEqual([('p1', 'q1', at, 2),
                          ('p1', 'q1', at + 3 * minute, 1),
                          ('p2', 'q2', at, 1)], rows)

    def test_never_deliverable_and_early_claims(self):
        self.assertEqual(['never'], [r['id'] for r in auditing
                                     .never_deliverable(self.prepared)
                                     .collect()])
        (early,) = auditing.early_claims(self.prepared).collect()
        self.assertEqual(('early', 105.0), (early['id'], early['early_by']))


class AuditJobTest(base.SparkTestCase):

    def test_writes_tables_summary_and_plot(self):
        out = tempfile.mkdtemp(prefix='zaqar-delay-audit-')
        text = audit.run(self.spark, self.frame(SNAPSHOT, schemas.SNAPSHOT),
                         out, hours=1)
        for name in ('queues', 'forecast', 'never_deliverable',
                     'early_claims'):
            self.assertTrue(os.path.isdir(os.path.join(out, name)), name)
        self.assertEqual(3, self.spark.read.parquet(
            os.path.join(out, 'forecast')).count())
        with open(os.path.join(out, 'forecast.png'), 'rb') as png:
            self.assertEqual(b'\x89PNG', png.read(4))
        with open(os.path.join(out, 'summary.txt')) as summary:
            self.assertEqual(text, summary.read())
        self.assertIn('10 messages in 2 queues: 6 delayed, 3 claimed', text)
        self.assertIn('coming due in the next 1 hours: 4', text)
        self.assertIn('never deliverable (ttl ends before the delay): 1',
                      text)
        self.assertIn('claimed before due: 1', text)
