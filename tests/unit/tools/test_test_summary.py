"""tools/test_summary.py: each suite's times kept, the slowest listed."""

import io

import fixtures
import testtools

from tests.common import tools

summary = tools.load('test_summary')

SUBUNIT_CSV = """test,status,start_time,stop_time
a.Quick.test_one,success,2026-01-01 10:00:00+00:00,2026-01-01 10:00:01.5+00:00
a.Slow.test_two,fail,2026-01-01 10:00:00+00:00,2026-01-01 10:01:40+00:00
a.Skip.test_three,skip,2026-01-01 10:00:00+00:00,2026-01-01 10:00:00+00:00
setUpClass (a.Broken),fail,,
"""


class SummaryTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.folder = self.useFixture(fixtures.TempDir()).path

    def test_times_from_subunit2csv(self):
        rows = summary.times(SUBUNIT_CSV, 'unit')
        self.assertEqual(
            [('a.Quick.test_one', 'success', 1.5),
             ('a.Slow.test_two', 'fail', 100.0),
             ('a.Skip.test_three', 'skip', 0.0)],
            [(r['test'], r['status'], float(r['seconds'])) for r in rows])

    def test_slowest_of_every_suite_then_the_totals(self):
        summary.keep(summary.times(SUBUNIT_CSV, 'unit'), 'unit', self.folder)
        summary.keep([{'suite': 'slow', 'test': 'b.Long.test_wait',
                       'status': 'success', 'seconds': '60.0'}], 'slow',
                     self.folder)
        out = io.StringIO()
        code = summary.slowest(summary.load(self.folder), 2, out, 'ci')
        lines = out.getvalue().splitlines()
        self.assertEqual(1, code)       # a test failed
        self.assertIn('a.Slow.test_two', lines[1])
        self.assertIn('100.0', lines[1])
        self.assertIn('b.Long.test_wait', lines[2])
        self.assertEqual(['slow: 1 tests, 60 s of test time',
                          'unit: 3 tests, 102 s of test time',
                          'ci: 2 passed, 1 failed, 1 skipped'], lines[3:])

    def test_all_passed_is_0_and_nothing_is_1(self):
        rows = [{'suite': 'u', 'test': 't', 'status': 'success',
                 'seconds': '1'}]
        self.assertEqual(0, summary.slowest(rows, 20, io.StringIO()))
        self.assertEqual(1, summary.slowest([], 20, io.StringIO()))
