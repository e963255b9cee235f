import datetime

from tests.unit.pipeline import base
from zaqar_delay.pipeline.transforms import audit as transform
from zaqar_delay.pipeline import schemas

NOW, SNAPSHOT = base.NOW, base.SNAPSHOT


class AuditTransformsTest(base.SparkTestCase):

    def setUp(self):
        super().setUp()
        self.prepared = transform.prepare(
            self.frame(SNAPSHOT, schemas.SNAPSHOT))

    def test_per_queue_counts_and_lateness(self):
        rows = {(r['project'], r['queue']): r.asDict() for r in
                transform.queues(self.prepared, NOW).collect()}
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
                      for r in transform.forecast(self.prepared, NOW,
                                                  1).collect())
        at = datetime.datetime.fromtimestamp(NOW)
        minute = datetime.timedelta(minutes=1)
        self.assertEqual([('p1', 'q1', at, 2),
                          ('p1', 'q1', at + 3 * minute, 1),
                          ('p2', 'q2', at, 1)], rows)

    def test_never_deliverable_and_early_claims(self):
        self.assertEqual(['never'], [r['id'] for r in transform
                                     .never_deliverable(self.prepared)
                                     .collect()])
        (early,) = transform.early_claims(self.prepared).collect()
        self.assertEqual(('early', 105.0), (early['id'], early['early_by']))

    def test_lateness_histogram_bins_each_timed_claim_once(self):
        rows = sorted(tuple(r) for r in transform.lateness_histogram(
            self.prepared).collect())
        # 10 s late: bin [10, 30); 30 s late: bin [30, 60). The early
        # claim has no lateness.
        self.assertEqual([('p1', 'q1', 5, 1), ('p1', 'q1', 6, 1)], rows)
        self.assertEqual(10, transform.LATENESS_EDGES[5])
        self.assertEqual(30, transform.LATENESS_EDGES[6])

    def test_one_aggregation_gives_the_queues_and_the_histogram(self):
        stats = transform.queue_stats(self.prepared, NOW)
        self.assertEqual(
            sorted(tuple(r) for r in transform.lateness_histogram(
                self.prepared).collect()),
            sorted(tuple(r) for r in transform.lateness_of(stats)
                   .collect()))
        self.assertEqual(
            sorted(tuple(r) for r in transform.queues(self.prepared, NOW)
                   .collect()),
            sorted(tuple(r) for r in stats.drop('lateness_bins')
                   .collect()))
        self.assertEqual(['early', 'never'], sorted(
            r['id'] for r in transform.exceptions(self.prepared).collect()))
