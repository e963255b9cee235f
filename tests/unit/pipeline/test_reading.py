"""Reading inputs: columns by name in every format."""

import json
import os
import shutil
import tempfile

from pyspark.sql import types as T

from tests.unit.pipeline import base
from zaqar_delay.pipeline import reading
from zaqar_delay.pipeline import schemas

# The order doc/source/pipeline.rst lists the columns in, and another.
DOC_ORDER = 'queue,body,ttl,delay,deliver_at,project'
SHUFFLED = 'project,deliver_at,body,delay,queue,ttl'
ROW = {'queue': 'q.1', 'body': '{"a": 1}', 'ttl': '600', 'delay': '30',
       'deliver_at': None, 'project': 'tenant.a'}


class ReadTest(base.SparkTestCase):

    def setUp(self):
        super().setUp()
        self.dir = tempfile.mkdtemp(prefix='zaqar-delay-reading-')
        self.addCleanup(shutil.rmtree, self.dir, True)

    def csv(self, name, header, *rows):
        path = os.path.join(self.dir, name)
        with open(path, 'w') as f:
            f.write(header + '\n')
            for row in rows:
                f.write(','.join(
                    '' if row[c] is None else '"%s"' % row[c].replace(
                        '"', '""') for c in header.split(',')) + '\n')
        return path

    def read(self, paths, fmt, **options):
        return reading.read(self.spark, paths, fmt, schemas.SCHEDULE_TEXT,
                            **options)

    def test_csv_columns_are_matched_by_header_name(self):
        for header in (DOC_ORDER, SHUFFLED):
            df = self.read([self.csv(header + '.csv', header, ROW)], 'csv')
            self.assertEqual(header.split(','), df.columns)
            self.assertEqual([ROW], [r.asDict() for r in df.collect()])

    def test_csv_files_with_another_header_are_refused(self):
        paths = [self.csv('a.csv', DOC_ORDER, ROW),
                 self.csv('b.csv', SHUFFLED, ROW)]
        df = self.read(paths, 'csv')
        exc = self.assertRaises(Exception, df.collect)
        text = reading.input_error(exc)
        self.assertEqual(1, len(text.splitlines()), text)
        self.assertRegex(text, r'^file:\S*/b\.csv: its header differs from '
                         r'the first CSV file\'s \(every file must have the '
                         r'same header\): CSV header does not conform')
        self.assertIsNone(reading.input_error(ValueError('other')))

    def test_csv_columns_of_the_schema_get_its_types(self):
        schema = T.StructType([T.StructField('due', T.DoubleType()),
                               T.StructField('id', T.StringType())])
        path = self.csv('s.csv', 'id,due,extra',
                        {'id': 'm1', 'due': '12.5', 'extra': 'x'})
        (row,) = reading.read(self.spark, [path], 'csv', schema).collect()
        self.assertEqual({'id': 'm1', 'due': 12.5, 'extra': 'x'},
                         row.asDict())

    def test_json_lines_with_all_columns_finds_every_key(self):
        path = os.path.join(self.dir, 'in.jsonl')
        with open(path, 'w') as f:
            f.write(json.dumps({'body': {'a': 1}, 'queue': 'q'}) + '\n')
            f.write(json.dumps({'queue': 'q', 'body': 'b', 'dealy': 5}) +
                    '\n')
            f.write('not JSON\n')
        self.assertEqual(list(schemas.SCHEDULE_COLUMNS),
                         self.read([path], 'json').columns)
        df = self.read([path], 'json', all_columns=True)
        self.assertEqual(['queue', 'body', 'dealy'], df.columns)
        self.assertEqual([('q', '{"a": 1}', None), ('q', 'b', '5'),
                          (None, None, None)],
                         [tuple(r) for r in df.collect()])
