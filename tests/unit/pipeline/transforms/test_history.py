"""The audit's true lateness on a small history with known answers.

Percentiles are nearest-rank, worked out here by hand: the p-th
percentile of n sorted values is the ceil(p * n)-th.
"""

from tests.unit.pipeline import base
from zaqar_delay.pipeline import schemas
from zaqar_delay.pipeline.transforms import history as transform

T0 = base.NOW       # a minute boundary


def event(mid, kind, at, queue='q.1', project='p1', due=None, status=None,
          count=None):
    row = dict.fromkeys(f.name for f in schemas.HISTORY.fields)
    row.update(project=project, queue=queue, message_id=mid, kind=kind,
               at=float(at), due=due, status=status, claim_count=count)
    return tuple(row[f.name] for f in schemas.HISTORY.fields)


def posted(mid, due, at=T0, **kw):
    return event(mid, 'posted', at, due=None if due is None else float(due),
                 **kw)


HISTORY = [
    posted('m1', T0 + 10), event('m1', 'claimed', T0 + 12),     # late 2
    event('m1', 'deleted', T0 + 13),
    posted('m2', T0 + 10), event('m2', 'claimed', T0 + 10),     # late 0
    event('m2', 'released', T0 + 11), event('m2', 'claimed', T0 + 20),
    event('m2', 'deleted', T0 + 21),
    posted('m3', None, at=T0 + 5), event('m3', 'claimed', T0 + 9),  # 4
    posted('m4', T0 + 30), event('m4', 'pushed', T0 + 31, status=500),
    event('m4', 'pushed', T0 + 35, status=204),                 # late 5
    posted('m5', T0 + 30), event('m5', 'claimed', T0 + 90),     # late 60
    event('m5', 'pushed', T0 + 95, status=200),
    event('m5', 'claimed', T0 + 100), event('m5', 'claimed', T0 + 110),
    posted('m6', T0 + 100), event('m6', 'expired', T0 + 200),   # never
    posted('m7', T0 + 40), event('m7', 'pushed', T0 + 40, status=201),
    event('m7', 'claimed', T0 + 41),                            # late 0
    posted('m8', T0 + 60), event('m8', 'claimed', T0 + 67),     # late 7
    posted('m9', T0 + 60), event('m9', 'claimed', T0 + 68),     # late 8
    posted('m10', T0 + 60), event('m10', 'claimed', T0 + 69),   # late 9
    posted('m11', T0 + 100), event('m11', 'claimed', T0 + 120),  # 20
    event('m99', 'claimed', T0 + 5),            # posted event trimmed
    posted('m20', T0 + 50, queue='q2', project='p2'),
    event('m20', 'claimed', T0 + 45, queue='q2', project='p2'),  # early 5
    posted('m21', T0 + 50, queue='q2', project='p2'),
    event('m21', 'claimed', T0 + 50, queue='q2', project='p2'),  # late 0
]


class TrueLatenessTest(base.SparkTestCase):

    def setUp(self):
        super().setUp()
        self.delivered = transform.deliveries(
            self.frame(HISTORY, schemas.HISTORY))

    def test_first_claim_or_first_2xx_push_is_the_delivery(self):
        rows = {r['message_id']: r for r in self.delivered.collect()}
        self.assertNotIn('m99', rows)
        self.assertEqual(13, len(rows))
        self.assertEqual((T0 + 35, 5.0, 0), (
            rows['m4']['delivered_at'], rows['m4']['lateness'],
            rows['m4']['claims']))
        self.assertEqual((T0 + 90, 60.0, 3), (
            rows['m5']['delivered_at'], rows['m5']['lateness'],
            rows['m5']['claims']))
        self.assertEqual((T0 + 40, 0.0), (rows['m7']['delivered_at'],
                                          rows['m7']['lateness']))
        self.assertEqual((T0 + 5, 4.0), (rows['m3']['due_at'],
                                         rows['m3']['lateness']))
        self.assertIsNone(rows['m6']['delivered_at'])
        self.assertEqual((True, -5.0), (rows['m20']['early'],
                                        rows['m20']['lateness']))
        self.assertEqual(['m20'], [r['message_id'] for r in rows.values()
                                   if r['early']])

    def test_a_claim_is_judged_against_its_due_times_second(self):
        # Claims' events are timed to their second, due times and pushes
        # to the millisecond.
        rows = {r['message_id']: r for r in transform.deliveries(self.frame([
            posted('s1', T0 + 10.4), event('s1', 'claimed', T0 + 10),
            posted('s2', T0 + 10.4), event('s2', 'claimed', T0 + 9),
            posted('s3', T0 + 10.4),
            event('s3', 'pushed', T0 + 10.3, status=204),
            posted('s4', T0 + 10.4),
            event('s4', 'pushed', T0 + 10.45, status=204),
        ], schemas.HISTORY)).collect()}
        self.assertEqual(
            {'s1': (False, 0.0), 's2': (True, -1.0), 's3': (True, -0.1),
             's4': (False, 0.05)},
            {mid: (row['early'], round(row['lateness'], 3))
             for mid, row in rows.items()})

    def test_per_queue_percentiles_early_and_claims(self):
        rows = {(r['project'], r['queue']): r.asDict() for r in
                transform.queue_lateness(self.delivered).collect()}
        q1 = rows[('p1', 'q.1')]
        # Lateness of the 10 delivered, sorted: 0 0 2 4 5 7 8 9 20 60.
        # p50: 5th = 5; p90: 9th = 20; p99: 10th = 60.
        self.assertEqual(
            (11, 10, 0, 5.0, 20.0, 60.0, 60.0),
            (q1['posted'], q1['delivered'], q1['early'], q1['lateness_p50'],
             q1['lateness_p90'], q1['lateness_p99'], q1['lateness_max']))
        # Claims: m1 1, m2 2, m3 1, m5 3, m7-m11 1 each: 12 on 9 messages.
        self.assertEqual((12, 9, 3, 2), (q1['claims'], q1['claimed'],
                                         q1['claims_max'], q1['retried']))
        self.assertEqual((T0 + 9, T0 + 120), (q1['first_delivery'],
                                              q1['last_delivery']))
        q2 = rows[('p2', 'q2')]
        # Sorted: -5 0. p50: 1st; p90 and p99: 2nd.
        self.assertEqual((2, 2, 1, -5.0, 0.0, 0.0, 0.0), (
            q2['posted'], q2['delivered'], q2['early'], q2['lateness_p50'],
            q2['lateness_p90'], q2['lateness_p99'], q2['lateness_max']))

    def test_retries_and_early_deliveries(self):
        self.assertEqual(
            [('p1', 'q.1', 0, 2), ('p1', 'q.1', 1, 7), ('p1', 'q.1', 2, 1),
             ('p1', 'q.1', 3, 1), ('p2', 'q2', 1, 2)],
            sorted(tuple(r) for r in transform.retries(self.delivered)
                   .collect()))
        (early,) = transform.early_deliveries(self.delivered).collect()
        self.assertEqual(('p2', 'q2', 'm20', 5.0), (
            early['project'], early['queue'], early['message_id'],
            early['early_by']))

    def test_lateness_per_minute_per_queue_and_all(self):
        rows = sorted(
            (r['queue'], r['start'] - T0, r['deliveries'], r['lateness_p50'],
             r['lateness_p90'], r['lateness_p99'], r['lateness_max'])
            for r in transform.lateness_over_time(self.delivered, 60)
            .collect())
        self.assertEqual([
            # m1 2, m2 0, m3 4, m4 5, m7 0: sorted 0 0 2 4 5; 3rd, 5th.
            ('q.1', 0, 5, 2.0, 5.0, 5.0, 5.0),
            # m5 60, m8 7, m9 8, m10 9: sorted 7 8 9 60; 2nd, 4th.
            ('q.1', 60, 4, 8.0, 60.0, 60.0, 60.0),
            ('q.1', 120, 1, 20.0, 20.0, 20.0, 20.0),        # m11
            ('q2', 0, 2, -5.0, 0.0, 0.0, 0.0)], rows)
        every = sorted(
            (r['start'] - T0, r['deliveries'], r['lateness_p50'],
             r['lateness_p90'], r['lateness_max'])
            for r in transform.lateness_over_time(self.delivered, 60,
                                                  by_queue=False).collect())
        # First minute, both queues: -5 0 0 0 2 4 5; 4th, 7th.
        self.assertEqual([(0, 7, 0.0, 5.0, 5.0), (60, 4, 8.0, 60.0, 60.0),
                          (120, 1, 20.0, 20.0, 20.0)], every)
