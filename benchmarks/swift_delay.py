"""Compare ``swift`` (upstream) and ``swift.delay`` on one Swift.

    python benchmarks/swift_delay.py [--sizes 0,100,1000]
        [--ready 1000] [--claimers 1,2,4,6] [--seconds 120] [--repeat 3]
        [--upstream-up-to N] [--proxy-workers N] [--skip-claims]
        [--breakdown] [--drivers swift,swift.delay] [--cpu]

Starts Keystone and a one-replica Swift on loopback (as the tests do,
from the .tox/services virtualenv), with a redis management store. For N
delayed messages ahead of one ready one, on a queue with a default
delay, prints per claim (limit 1; the median time of --repeat claims,
default 3): object GETs, container listings, all requests to Swift,
rounds (the longest chain of those requests in which each started once
the one before had ended: the round trips the claim waited for one
after another) and wall time, for each driver (the queues' first
claims, which make their containers, are not counted); then post throughput;
then parallel claimers: for each thread count, --ready messages posted
ready, threads that claim 10 and delete what they got until all are
acknowledged or --seconds pass: messages acknowledged per second, and
how many were given early, twice or not at all (a delete refused
because another claim holds the message counts as given twice), and the
claimers' Swift requests per message acknowledged (with --breakdown,
by method and container kind too), then ``+ends``: those and the
requests of what the claims' ends cost later (claim calls made once
Zaqar's clock is past every claim of the run, until no claim's
``claim_expiry`` entry is left; upstream has none). --proxy-workers N
runs the Swift proxy as N worker processes (default one process). A claim
that fails prints its error instead. Last, Swift's own ceiling: how many
object PUT + GET pairs a second the same Swift serves to 1 to 12
threads, so that the claimers' rates can be read against it.
--drivers runs only the drivers named (default both). --cpu prints,
after each parallel claimers row, the CPU each server and this process
used during the run, in cores, and the machine's busy cores of
``os.cpu_count()``; then Swift's servers' CPU time a message
acknowledged, and the rate they could reach at that cost with every
core of the machine to themselves (no claimer, no Keystone): no number
of claimers goes past it here without making a message cheaper.
"""

import argparse
import atexit
import collections
from concurrent import futures
import os
import sys
import time

from oslo_utils import timeutils
from zaqar.storage.redis import driver as redis_driver
from zaqar.storage.swift import driver as upstream

from benchmarks import common
from benchmarks import procs
from tests.common import concurrency
from tests.fixtures import openstack
from tests.fixtures import services
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import driver as delay_driver
from zaqar_delay.storage.swift import index as idx

PROJECT = common.PROJECT
CLASSES = {'swift': upstream.DataDriver,
           'swift.delay': delay_driver.DataDriver}


def make(cls, conf_text):
    control, data = common.make_driver(cls, redis_driver.ControlDriver,
                                       conf_text)
    data._lazy_connection = swift_store.Counting(data.connection)
    return control, data


def post_delayed(data, queue, count, workers=8):
    def post(_):
        data.message_controller.post(
            queue, [{'ttl': 86400, 'body': 'later', 'delay': 3600}],
            common.CLIENT, PROJECT)
    with futures.ThreadPoolExecutor(workers) as pool:
        list(pool.map(post, range(count)))


def one_claim(data, queue):
    (mid,) = data.message_controller.post(
        queue, [{'ttl': 600, 'body': 'ready', 'delay': 0}], common.CLIENT,
        PROJECT)
    calls = data.connection
    calls.clear()
    t0 = time.perf_counter()
    try:
        claim_id, msgs = data.claim_controller.create(
            queue, {'ttl': 60, 'grace': 60}, PROJECT, limit=1)
    except (Exception, RecursionError) as exc:
        return '%s after %d object GETs' % (type(exc).__name__,
                                            calls.total('get_object'))
    elapsed = (time.perf_counter() - t0) * 1000
    counts = (calls.total('get_object'), calls.total('get_container'),
              calls.total(), calls.rounds())
    if [m['id'] for m in msgs] != [mid]:
        return 'claimed %r, wanted %r' % ([m['id'] for m in msgs], mid)
    data.message_controller.delete(queue, mid, PROJECT, claim=claim_id)
    return counts + (elapsed,)


def median_claim(data, queue, repeat):
    """``one_claim`` ``repeat`` times: the row of the median time."""
    rows = []
    for _ in range(repeat):
        row = one_claim(data, queue)
        if isinstance(row, str):
            return row
        rows.append(row)
    rows.sort(key=lambda row: row[-1])
    return '%6d %6d %6d %6d %9.1f' % rows[len(rows) // 2]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='0,100,1000')
    parser.add_argument('--ready', type=int, default=1000)
    parser.add_argument('--claimers', default='1,2,4,6')
    parser.add_argument('--seconds', type=float, default=120)
    parser.add_argument('--skip-claims', action='store_true')
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--breakdown', action='store_true',
                        help="the parallel claimers' requests per message "
                        'by method and container kind')
    parser.add_argument('--proxy-workers', type=int, default=0,
                        help="the Swift proxy's worker processes (default "
                        '0: one process, as the tests run it)')
    parser.add_argument('--upstream-up-to', type=int, default=None,
                        help="skip upstream's claims at larger N (each "
                        'of its claims GETs every message ahead)')
    parser.add_argument('--drivers', default='swift,swift.delay',
                        help='the drivers to run, of swift and swift.delay')
    parser.add_argument('--cpu', action='store_true',
                        help="the servers' and this process's CPU use "
                        'during each parallel claimers run')
    args = parser.parse_args(argv)
    if args.proxy_workers:
        stack = openstack.KeystoneSwift(
            proxy_workers=args.proxy_workers).start()
        atexit.register(stack.cleanup)
    else:
        stack = services.keystone_swift()
    conf_text = swift_store.DRIVER_CONF.format(
        admin=openstack.ADMIN, password=openstack.PASSWORD,
        keystone=stack.keystone, region=openstack.REGION,
        redis=services.redis_server().url) + (
        '\n[transport]\nmax_message_delay = 86400\n')
    drivers_ = {name: make(CLASSES[name], conf_text)
                for name in args.drivers.split(',')}
    queues = {'swift': 'up', 'swift.delay': 'delay'}
    for name, (control, _) in drivers_.items():
        control.queue_controller.create(queues[name], project=PROJECT)
        control.queue_controller.set_metadata(
            queues[name], {'_default_message_delay': 3600}, project=PROJECT)

    if not args.skip_claims:
        per_claim(drivers_, queues, args.sizes, args.repeat,
                  args.upstream_up_to)
    print('\npost throughput, 10 messages a call, messages/s')
    for name, (control, data) in drivers_.items():
        control.queue_controller.create('posts', project=PROJECT)
        rate = common.post_rate(data, 'posts', None, seconds=5)
        print('%-12s %8.1f' % (name, rate))
    parallel_claimers(drivers_, conf_text, args, servers(stack))
    swift_ceiling(conf_text, args.claimers)


def servers(stack):
    """{name: pid} of the Keystone and Swift servers of ``stack``."""
    names = {'swift-proxy-server': 'swift proxy',
             'swift-object-server': 'swift object',
             'swift-container-server': 'swift container',
             'swift-account-server': 'swift account',
             'gunicorn': 'keystone'}
    found = {}
    for process in stack.processes:
        # What the server runs (``dev.launcher.spawn``), not its launcher.
        program = os.path.basename(process.command[0])
        if 'ObjectUpdater' in ' '.join(process.command):
            found['swift object updater'] = process.pid
        elif program in names:
            found[names[program]] = process.pid
    missing = set(names.values()) - set(found)
    if missing:
        # The CPU rows and the ceiling would leave their time out.
        raise SystemExit('no process found for %s' % ', '.join(
            sorted(missing)))
    return found


def parallel_claimers(drivers_, conf_text, args, pids):
    print('\nparallel claimers (claim 10, delete each) on %d ready messages'
          % args.ready)
    print('%8s %-12s %9s %8s %6s %6s %6s %9s %6s' % (
        'threads', 'driver', 'acked', 'msg/s', 'early', 'twice', 'lost',
        'reqs/msg', '+ends'))
    for threads in [int(t) for t in args.claimers.split(',')]:
        for name, (control, data) in drivers_.items():
            queue = 'par-%s-%d' % (name.replace('.', '-'), threads)
            control.queue_controller.create(queue, project=PROJECT)
            due = concurrency.post_mixed(data, queue, PROJECT, args.ready,
                                         (0,))
            claimers = []

            def claimer_driver():
                claimers.append(make(CLASSES[name], conf_text)[1])
                return claimers[-1]
            cpu = procs.CPU(pids)
            cpu.start()
            outcome = concurrency.run_claimers(
                claimer_driver, queue, PROJECT, due, threads, args.seconds)
            used = cpu.shares()
            acked = len(outcome.acked)
            twice = sum(1 for n in outcome.acked.values() if n > 1) + len(
                set(outcome.double))
            # Every Swift request the claimers made (claims, deletes,
            # promotion), per message acknowledged.
            run = sum(requests(claimers).values())
            claims_end(claimers[0], data, queue, seconds=3600)
            calls = requests(claimers)
            print('%8d %-12s %9d %8.1f %6d %6d %6d %9.1f %6.1f' % (
                threads, name, acked, acked / outcome.seconds,
                len(set(outcome.early)), twice, len(due) - acked,
                run / max(acked, 1), sum(calls.values()) / max(acked, 1)))
            if args.cpu:
                print('%30s %s (of %d)' % ('cores used', ', '.join(
                    '%s %.2f' % item for item in sorted(used.items())),
                    os.cpu_count()))
                print('%30s %s' % ('swift ceiling', swift_cpu_ceiling(
                    used, acked / outcome.seconds)))
            if args.breakdown:
                for (method, kind), n in calls.most_common():
                    print('%30s %-28s %6.2f' % (method, kind,
                                                n / max(acked, 1)))
            sys.stdout.flush()


def swift_cpu_ceiling(used, rate):
    """The CPU Swift's servers spent a message acknowledged (from
    ``used``, cores during a run that acknowledged ``rate`` messages a
    second), and the rate at that cost if they had every core of the
    machine, and nothing else ran."""
    swift = sum(cores for name, cores in used.items()
                if name.startswith('swift'))
    if not rate or not swift:
        return 'no message acknowledged'
    ms = swift / rate * 1000
    ceiling = os.cpu_count() / swift * rate
    return ('%.1f CPU ms a message; with all %d cores: %.1f msg/s, '
            '%.2f x this run' % (ms, os.cpu_count(), ceiling,
                                 ceiling / rate))


def requests(drivers_):
    """The Swift requests ``drivers_`` made so far, by (method, kind)."""
    calls = collections.Counter()
    for driver in drivers_:
        calls.update(driver.connection.calls)
    return calls


def claims_end(claimer, data, queue, seconds):
    """Claim calls (limit 1) by ``claimer`` with Zaqar's clock moved
    ``seconds`` on, past every claim of the run, until no claim's
    ``claim_expiry`` entry is left (``data`` looks, uncounted), at most
    20 calls."""
    entries = idx.Index(data.connection, queue, PROJECT)
    timeutils.set_time_override()
    timeutils.advance_time_seconds(seconds)
    try:
        for _ in range(20):
            claimer.claim_controller.create(
                queue, {'ttl': 60, 'grace': 0}, PROJECT, limit=1)
            if not entries.names(idx.CLAIM_EXPIRY, end_marker=idx.until(
                    timeutils.utcnow_ts()), limit=1):
                return
    finally:
        timeutils.clear_time_override()


def swift_ceiling(conf_text, claimers, seconds=10):
    print('\nSwift alone: 200-byte object PUT then GET, pairs/s')
    counts = sorted({1, 12} | {int(t) for t in claimers.split(',')})
    for threads in counts:
        stop = time.monotonic() + seconds

        def pairs(thread):
            client = make(delay_driver.DataDriver, conf_text)[1].connection
            client.put_container('ceiling')
            done = 0
            while time.monotonic() < stop:
                name = '%d-%d-%d' % (threads, thread, done)
                client.put_object('ceiling', name, b'x' * 200)
                client.get_object('ceiling', name)
                done += 1
            return done
        with futures.ThreadPoolExecutor(threads) as pool:
            total = sum(pool.map(pairs, range(threads)))
        print('%8d threads %8.1f' % (threads, total / seconds))
        sys.stdout.flush()


def per_claim(drivers_, queues, sizes, repeat, upstream_up_to=None):
    print('per claim (limit 1) with N delayed ahead (after a first claim '
          'that made the containers)')
    print('%7s %-12s %6s %6s %6s %6s %9s' % (
        'N', 'driver', 'GETs', 'lists', 'reqs', 'rounds', 'ms'))
    for name, (_, data) in drivers_.items():
        one_claim(data, queues[name])
    ahead = 0
    for size in [int(s) for s in sizes.split(',')]:
        for name, (_, data) in drivers_.items():
            if name == 'swift' and upstream_up_to is not None and (
                    size > upstream_up_to):
                print('%7d %-12s skipped (--upstream-up-to)' % (size, name))
                continue
            post_delayed(data, queues[name], size - ahead)
            print('%7d %-12s %s' % (size, name, median_claim(
                data, queues[name], repeat)))
            sys.stdout.flush()
        ahead = size


if __name__ == '__main__':
    main()
