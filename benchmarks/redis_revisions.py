"""Claim, list and pop latency of ``redis.delay`` at another revision, at
this one, and of upstream's ``redis``, on one redis-server, in one run.

    git worktree add /tmp/zaqar-delay-base <revision>
    python benchmarks/redis_revisions.py --baseline /tmp/zaqar-delay-base
        [--sizes 0,1000000] [--rounds 30] [--repeats 10]
        [--operations claim,claim10,list,pop] [--budget 20]

Starts one redis-server on a free loopback port and one process per
driver, each on its own database of it: upstream's ``redis``, this
checkout's ``redis.delay``, and the ``redis.delay`` of the checkout
``--baseline`` names (its ``zaqar_delay`` package, imported in its
process; the rest of the process is this checkout's). For each N, each
driver gets N delayed messages ahead of its queue's ready one; then, for
each operation, the three take turns, ``--rounds`` times, each timing
``--repeats`` calls (a claim or a pop of limit 1, a list page of 10)
that find one message posted ready just before (``claim10``: a claim
of limit 10 that finds ten). Prints the median call
per driver and the ratios: this revision against the baseline and
against upstream (under 1: faster).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from benchmarks import common

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUEUE = 'claims'
# What --operations names: each times one call that finds one message
# posted ready just before, behind the N delayed ones.
DRIVERS = ('redis', 'baseline', 'redis.delay')
OPERATIONS = {'claim': common.claim_ms, 'list': common.list_ms,
              'pop': common.pop_ms, 'claim10': common.claim10_ms}


def worker(name, url, dbid, tree):
    """Serve ``post N`` and ``claim REPEATS BUDGET`` lines from stdin
    with one driver; answer each with a JSON line."""
    if tree:
        # The baseline's package first, then this checkout for the rest.
        sys.path.insert(0, tree)
        import zaqar_delay  # noqa: F401
        sys.path.remove(tree)
    from benchmarks import redis_delay   # imports zaqar_delay
    from zaqar.storage.redis import driver as upstream
    from zaqar_delay.storage.redis import control
    from zaqar_delay.storage.redis import driver as delay
    data_class = upstream.DataDriver if name == 'redis' else delay.DataDriver
    ctl, data = common.make_driver(data_class, control.ControlDriver,
                                   redis_delay.CONF.format(
                                       url=url, dbid=dbid, stages=''))
    ctl.queue_controller.create(QUEUE, project=common.PROJECT)
    print(json.dumps(os.path.dirname(sys.modules['zaqar_delay'].__file__)),
          flush=True)
    for line in sys.stdin:
        verb, *args = line.split()
        if verb == 'post':
            common.post_delayed(data, QUEUE, int(args[0]))
            answer = 'ok'
        else:
            timed = OPERATIONS[verb]
            repeats, budget = int(args[0]), float(args[1])
            answer, started = [], time.monotonic()
            while len(answer) < repeats and (
                    not answer or time.monotonic() - started < budget):
                answer.append(timed(data, QUEUE, 1, budget)[0])
        print(json.dumps(answer), flush=True)


class Worker:
    def __init__(self, name, url, dbid, tree=None):
        self.name = name
        argv = [sys.executable, '-m', 'benchmarks.redis_revisions',
                '--worker', name, '--url', url, '--dbid', str(dbid)]
        if tree:
            argv += ['--tree', tree]
        self.process = subprocess.Popen(
            argv, cwd=HERE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                filter(None, [HERE, os.environ.get('PYTHONPATH')]))))
        self.package = json.loads(self.process.stdout.readline() or 'null')

    def ask(self, line):
        self.process.stdin.write(line + '\n')
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError('the %s worker exited' % self.name)
        return json.loads(answer)

    def stop(self):
        self.process.stdin.close()
        self.process.wait()


def row(op, size, times):
    """A line of the table: each driver's median ms (how many calls),
    this revision's ratios; '-' for a driver not timed."""
    med = {name: statistics.median(t) for name, t in times.items()}
    cells = ['%8.3f(%3d)' % (med[name], len(times[name])) if name in med
             else '%13s' % '-' for name in DRIVERS]
    ratios = ['%9.*fx' % (places, med['redis.delay'] / med[name])
              if name in med else '%10s' % '-'
              for name, places in (('baseline', 2), ('redis', 4))]
    return '%-7s %9d %s %s' % (op, size, ' '.join(cells), ' '.join(ratios))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--baseline', help='a checkout of another revision')
    parser.add_argument('--sizes', default='0,1000000')
    parser.add_argument('--operations', default='claim',
                        help='what to time, of %s' % ','.join(OPERATIONS))
    parser.add_argument('--repeats', type=int, default=10,
                        help='calls per driver, operation, N and round')
    # Short turns: a burst of other work on the machine falls on all
    # three drivers (3 turns of 67 moved a median by up to a third).
    parser.add_argument('--rounds', type=int, default=30)
    parser.add_argument('--budget', type=float, default=20.0,
                        help='seconds of calls per driver, operation '
                             'and round at most (upstream at a large N)')
    parser.add_argument('--worker', help=argparse.SUPPRESS)
    parser.add_argument('--url', help=argparse.SUPPRESS)
    parser.add_argument('--dbid', type=int, help=argparse.SUPPRESS)
    parser.add_argument('--tree', help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.worker, args.url, args.dbid, args.tree)
    if not args.baseline or not os.path.isdir(
            os.path.join(args.baseline, 'zaqar_delay')):
        parser.error('--baseline must name a zaqar-delay checkout')

    from tests.fixtures import services
    server = services.redis_server()
    revision = subprocess.run(
        ['git', '-C', args.baseline, 'log', '-1', '--format=%h %s'],
        capture_output=True, text=True).stdout.strip() or args.baseline
    print('redis-server %s on %s; baseline: %s' % (
        server.client.info()['redis_version'], server.url, revision))
    workers = [Worker('redis', server.url, 0),
               Worker('baseline', server.url, 1, args.baseline),
               Worker('redis.delay', server.url, 2)]
    for w in workers[1:]:
        print('%s: %s' % (w.name, w.package))
    operations = [op for op in args.operations.split(',') if op]
    if set(operations) - set(OPERATIONS):
        parser.error('--operations: of %s' % ','.join(OPERATIONS))
    print('\nmedian ms over %d rounds taking turns (claim and pop: limit '
          '1; list: a page of 10; claim10: limit 10)' % args.rounds)
    print('%-7s %9s %13s %13s %13s %10s %10s' % (
        'call', 'N ahead', 'redis', 'baseline', 'redis.delay', '/baseline',
        '/redis'))
    ahead = 0
    try:
        for size in (int(s) for s in args.sizes.split(',') if s):
            for w in workers:
                w.ask('post %d' % (size - ahead))
            ahead = size
            for op in operations:
                # Upstream's list page is empty behind delayed messages.
                timing = [w for w in workers if not (
                    op == 'list' and size and w.name == 'redis')]
                times = {w.name: [] for w in timing}
                for _ in range(args.rounds):
                    for w in timing:
                        times[w.name] += w.ask('%s %d %s' % (
                            op, args.repeats, args.budget))
                print(row(op, size, times))
                sys.stdout.flush()
    finally:
        for w in workers:
            w.stop()


if __name__ == '__main__':
    main()
