"""One local Spark session per test process (each JVM costs seconds)."""

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
