"""One local Spark session per test process (each JVM costs seconds),
and a snapshot with known audit answers."""

import atexit

import testtools

_session = []


def spark():
    if not _session:
        from zaqar_delay.pipeline import session
        _session.append(session.spark('local[2]', 'zaqar-delay-tests',
                                      shuffle_partitions=2))
        atexit.register(_session[0].stop)
    return _session[0]


class SparkTestCase(testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.spark = spark()

    def frame(self, rows, schema):
        return self.spark.createDataFrame(rows, schema)


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
