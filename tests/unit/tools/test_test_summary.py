"""tools/test_summary.py: each suite's times kept, the slowest listed."""

import datetime
import io

import fixtures
import subunit
import testtools

from tests.common import tools

summary = tools.load('test_summary')

T0 = datetime.datetime(2026, 1, 1, 10, tzinfo=datetime.timezone.utc)


def stream():
    """Three tests' subunit, with a worker's output between them."""
    out = io.BytesIO()
    result = subunit.StreamResultToBytes(out)
    for test, status, seconds in (('a.Quick.test_one', 'success', 1.5),
                                  ('a.Slow.test_two', 'fail', 100),
                                  ('a.Skip.test_three', 'skip', 0)):
        result.status(test_id=test, test_status='inprogress', timestamp=T0)
        result.status(test_id=test, test_status=status,
                      timestamp=T0 + datetime.timedelta(seconds=seconds))
        out.write(b'not subunit\n')
    return out.getvalue()


class SummaryTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.folder = self.useFixture(fixtures.TempDir()).path

    def test_times_from_subunit(self):
        rows = summary.times(stream(), 'unit')
        self.assertEqual(
            [('a.Quick.test_one', 'success', 1.5),
             ('a.Slow.test_two', 'fail', 100.0),
             ('a.Skip.test_three', 'skip', 0.0)],
            [(r['test'], r['status'], float(r['seconds'])) for r in rows])

    def test_slowest_of_every_suite_then_the_totals(self):
        summary.keep(summary.times(stream(), 'unit'), 'unit', self.folder)
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

    def test_a_new_repository_is_seeded_once_with_the_times(self):
        from stestr.repository import util
        times = self.folder + '/times.csv'
        with open(times, 'w') as f:
            f.write('test,seconds\na.B.test_one,12.5\na.B.test_two,3\n')
        repo = self.folder + '/repo'
        summary.seed(repo, times)
        known = util.get_repo_open(repo_url=repo).get_test_times(
            ['a.B.test_one', 'a.B.test_two', 'a.B.test_new'])
        self.assertEqual({'a.B.test_one': 12.5, 'a.B.test_two': 3.0},
                         known['known'])
        self.assertEqual({'a.B.test_new'}, known['unknown'])
        summary.seed(repo, times)   # knows them: not a second run
        self.assertEqual(1, util.get_repo_open(repo_url=repo).count())
