"""Totals of test runs, and where their time went.

    python tools/test_summary.py LABEL [--repo-url REPOSITORY]
        [--seed TIMES.csv] [-- COMMAND]
    python3 tools/test_summary.py --slowest N [--total LABEL]

With a label (run by tox in the suite's virtualenv): runs ``COMMAND``
(``stestr run ...``) when given, then prints the last stestr run's
totals as one line, ``LABEL: N passed, N failed, N skipped``, and its
run time, and keeps each test's time (from ``stestr last --subunit``)
in ``.tox/timings/LABEL.csv``, failed tests or not; exits 1 when the
command failed, a test failed or none passed, or the command recorded
no run. With ``--seed``, a repository that knows fewer than half of the
tests of ``TIMES.csv`` (a fresh clone's) is first given their times
(as a run of its own), so that stestr balances its workers by them.

With ``--slowest N`` (standard library only, any python3): prints the N
slowest tests of every suite kept in ``.tox/timings``, each suite's
test count and the sum of its tests' times, then the totals of all of
them as the last line (``--total`` names it); exits 1 when one failed.
``.ci/run`` clears the folder first and runs this at its end.
"""

import argparse
import csv
import glob
import io
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMINGS = os.path.join(ROOT, '.tox', 'timings')
FIELDS = ('suite', 'test', 'status', 'seconds')
PASSED = ('success', 'xfail')
FAILED = ('fail', 'uxsuccess')


def times(stream, suite):
    """Rows of ``FIELDS`` from a subunit v2 ``stream`` (bytes); what is
    not subunit in it (a worker's output) is left out."""
    import subunit          # the suite's virtualenv has it
    import testtools
    rows = []

    def test(found):
        start, stop = found['timestamps']
        if start is None or stop is None:
            return
        rows.append({'suite': suite, 'test': found['id'],
                     'status': found['status'],
                     'seconds': '%.3f' % (stop - start).total_seconds()})
    result = testtools.StreamToDict(test)
    result.startTestRun()
    subunit.ByteStreamToStreamResult(
        io.BytesIO(stream), non_subunit_name='stdout').run(result)
    result.stopTestRun()
    return rows


def keep(rows, suite, folder=TIMINGS):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, suite + '.csv'), 'w', newline='') as f:
        writer = csv.DictWriter(f, FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def load(folder=TIMINGS):
    rows = []
    for path in sorted(glob.glob(os.path.join(folder, '*.csv'))):
        with open(path, newline='') as f:
            rows.extend(csv.DictReader(f))
    return rows


def counts(rows):
    passed = sum(1 for r in rows if r['status'] in PASSED)
    failed = sum(1 for r in rows if r['status'] in FAILED)
    return passed, failed, sum(1 for r in rows if r['status'] == 'skip')


def slowest(rows, n, out=sys.stdout, total='total'):
    """Print the ``n`` slowest of ``rows``, each suite's sum and the
    totals line; returns the exit status."""
    out.write('The %d slowest tests (seconds, suite, test):\n' % n)
    for row in sorted(rows, key=lambda r: -float(r['seconds']))[:n]:
        out.write('%9.1f  %s  %s\n' % (
            float(row['seconds']), row['suite'], row['test']))
    for suite in sorted({r['suite'] for r in rows}):
        mine = [r for r in rows if r['suite'] == suite]
        out.write('%s: %d tests, %.0f s of test time\n' % (
            suite, len(mine), sum(float(r['seconds']) for r in mine)))
    passed, failed, skipped = counts(rows)
    out.write('%s: %d passed, %d failed, %d skipped\n' % (
        total, passed, failed, skipped))
    return 1 if failed or not passed else 0


def _bin(name):
    """``name`` beside this interpreter (a virtualenv's), else on PATH."""
    path = os.path.join(os.path.dirname(sys.executable), name)
    return path if os.path.exists(path) else name


def last_run(label, repo=None):
    """Print the last stestr run's totals; keep its times."""
    stestr = [_bin('stestr')] + (['--repo-url', repo] if repo else [])
    out = subprocess.run(stestr + ['last'], capture_output=True,
                         text=True).stdout
    found = {}
    for name in ('Passed', 'Failed', 'Skipped'):
        found[name] = re.findall(r'- %s: (\d+)' % name, out)
    ran = re.findall(r'Ran: (\d+) tests in ([\d.]+) sec', out)
    stream = subprocess.run(stestr + ['last', '--subunit'],
                            capture_output=True).stdout
    keep(times(stream, label), label)
    passed, failed, skipped = (int(found[n][-1]) if found[n] else 0
                               for n in ('Passed', 'Failed', 'Skipped'))
    if ran:
        print('%s: ran %s tests in %.0f s' % (
            label, ran[-1][0], float(ran[-1][1])))
    print('%s: %d passed, %d failed, %d skipped' % (
        label, passed, failed, skipped))
    return 1 if failed or not passed else 0


def seed(repo, path):
    """Record the times of ``path`` (a CSV with ``test`` and ``seconds``
    columns) in the stestr repository ``repo``, unless it knows at least
    half of those tests' times already."""
    import datetime
    # The suite's virtualenv has stestr.
    from stestr.repository import abstract
    from stestr.repository import util
    with open(path) as f:
        seconds = {row['test']: float(row['seconds'])
                   for row in csv.DictReader(f)}
    try:
        repository = util.get_repo_open(repo_url=repo)
    except abstract.RepositoryNotFound:
        if repo:
            os.makedirs(repo, exist_ok=True)
        repository = util.get_repo_initialise(repo_url=repo)
    if 2 * len(repository.get_test_times(seconds)['known']) >= len(seconds):
        return
    start = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)
    inserter = repository.get_inserter()
    inserter.startTestRun()
    for test, took in seconds.items():
        inserter.status(test_id=test, test_status='inprogress',
                        timestamp=start)
        inserter.status(test_id=test, test_status='success',
                        timestamp=start + datetime.timedelta(seconds=took))
    inserter.stopTestRun()


def _next_stream(repo):
    """The next run number of the stestr repository in ``repo``."""
    try:
        with open(os.path.join(repo or '.', '.stestr', 'next-stream')) as f:
            return f.read().strip()
    except OSError:
        return None


def run_and_sum(label, repo, command, times=None):
    """Seed ``repo`` with ``times`` (a CSV, see ``seed``) when given, run
    ``command``, then ``last_run``."""
    if times:
        seed(repo, times)
    before = _next_stream(repo)
    code = subprocess.call(command)
    if _next_stream(repo) == before:
        print('%s: no run recorded (%s exited %d)' % (label, command[0],
                                                      code))
        return 1
    return last_run(label, repo) or (1 if code else 0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('label', nargs='?', default='tests')
    parser.add_argument('--slowest', type=int, metavar='N')
    parser.add_argument('--total', default='total')
    parser.add_argument('--repo-url', help="the folder of the suite's "
                        'stestr repository (.stestr)')
    parser.add_argument('--seed', metavar='TIMES.csv',
                        help='test times to balance a new repository by')
    argv = sys.argv[1:] if argv is None else list(argv)
    command = []
    if '--' in argv:    # the command that runs the tests
        command = argv[argv.index('--') + 1:]
        argv = argv[:argv.index('--')]
    args = parser.parse_args(argv)
    if args.slowest is not None:
        return slowest(load(), args.slowest, total=args.total)
    if command:
        return run_and_sum(args.label, args.repo_url, command, args.seed)
    return last_run(args.label, args.repo_url)


if __name__ == '__main__':
    sys.exit(main())
