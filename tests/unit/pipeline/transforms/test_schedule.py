import datetime

from pyspark.sql import types as T
import testtools

from tests.unit.pipeline import base
from zaqar_delay.pipeline import schemas
from zaqar_delay.pipeline.transforms import schedule as transform


def row(queue='q1', body='{"a": 1}', ttl='600', delay=None,
        deliver_at=None, project=None):
    return (project, queue, body, ttl, delay, deliver_at)


class ValidateTest(base.SparkTestCase):

    def reasons(self, *rows):
        df = transform.validate(transform.as_text(
            self.frame(list(rows), schemas.SCHEDULE_TEXT), 'p0'))
        return [r['reason'] for r in df.collect()]

    def test_valid_rows_have_no_reason(self):
        self.assertEqual([None] * 6, self.reasons(
            row(), row(delay='30'), row(deliver_at='2026-11-22T09:00:00Z'),
            row(deliver_at='1795334870'), row(ttl=None),
            row(queue='tenant.a.q-1_x', project='tenant.a')))

    def test_each_bad_value_is_named(self):
        self.assertEqual([
            'queue is missing',
            'queue name must be 1 to 64 letters, digits, dots, hyphens or '
            'underscores',
            'body is missing',
            'ttl must be a whole number of seconds',
            'delay must be a whole number of seconds, 0 or more',
            'delay must be a whole number of seconds, 0 or more',
            'delay must be a whole number of seconds, 0 or more',
            'give delay or deliver_at, not both',
            'deliver_at must be an ISO 8601 time or UNIX seconds',
        ], self.reasons(
            row(queue=None), row(queue='no spaces'), row(body=None),
            row(ttl='1h'), row(delay='-5'), row(delay='1.5'),
            row(delay='99999999999999999999'),
            row(delay='5', deliver_at='1795334870'),
            row(deliver_at='next tuesday')))

    def test_rows_keep_their_project_or_get_the_default(self):
        df = transform.as_text(self.frame(
            [row(project='p1'), row()], schemas.SCHEDULE_TEXT), 'p0')
        self.assertEqual(['p1', 'p0'], [r['project'] for r in df.collect()])


class ToPostTest(base.SparkTestCase):

    def test_types_and_deliver_at_as_unix_seconds(self):
        df = transform.to_post(transform.validate(transform.as_text(
            self.frame([row(delay=' 30 '),
                        row(deliver_at='2026-11-22T09:00:00Z'),
                        row(deliver_at='2026-11-22T10:00:00+01:00'),
                        row(deliver_at='1795334870.5', ttl=None),
                        row(queue='bad queue')],
                       schemas.SCHEDULE_TEXT))))
        rows = df.collect()
        nine = datetime.datetime(2026, 11, 22, 9, tzinfo=datetime.timezone.utc
                                 ).timestamp()
        self.assertEqual([(600, 30, None), (600, None, nine),
                          (600, None, nine), (None, None, 1795334870.5)],
                         [(r['ttl'], r['delay'], r['deliver_at'])
                          for r in rows])

    def test_parquet_types_are_read_as_text(self):
        schema = T.StructType([
            T.StructField('queue', T.StringType()),
            T.StructField('body', T.StructType([
                T.StructField('user', T.StringType())])),
            T.StructField('ttl', T.IntegerType()),
            T.StructField('deliver_at', T.TimestampType())])
        at = datetime.datetime(2026, 11, 22, 9, tzinfo=datetime.timezone.utc)
        df = transform.to_post(transform.validate(transform.as_text(
            self.frame([('q1', {'user': 'u1'}, 600, at)], schema))))
        (r,) = df.collect()
        self.assertEqual(('{"user":"u1"}', 600, None, at.timestamp()),
                         (r['body'], r['ttl'], r['delay'], r['deliver_at']))


class CheckColumnsTest(testtools.TestCase):

    def test_the_columns_in_any_order(self):
        transform.check_columns(['body', 'queue'])
        transform.check_columns(['deliver_at', 'project', 'delay', 'ttl',
                                 'body', 'queue'])
        transform.check_columns(['queue', 'body', 'reason'])    # a reject

    def test_a_missing_or_unknown_column_is_one_line(self):
        tail = (' (the columns are project, queue, body, ttl, delay, '
                'deliver_at; queue and body are required)')
        for columns, problem in (
                (['queue'], 'no body column'),
                (['ttl'], 'no queue or body column'),
                (['queue', 'body', 'projet'], "unknown column 'projet'"),
                (['queue', 'body', '_c1', 'Delay'],
                 "unknown columns '_c1', 'Delay'"),
                (['body', 'dealy'], "no queue column and unknown column "
                 "'dealy'")):
            exc = self.assertRaises(ValueError, transform.check_columns,
                                    columns)
            self.assertEqual('the input has ' + problem + tail, str(exc))
