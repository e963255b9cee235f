"""Claimers under contention: ``redis`` (upstream) and ``redis.delay``.

    python benchmarks/redis_claimers.py [--claimers 16] [--messages 20000]
        [--trials 3] [--seconds 120]

Starts its own redis-server (a database per driver and run). Per trial
and driver, ``--messages`` messages are posted to one queue, 10 a post,
three in four ready and one in four due in a second; then
``--claimers`` claimers claim 10 at a time and delete what they got
(each delete with its claim), until every message is acknowledged or
``--seconds`` pass: as threads over one driver, then as processes with
a driver each. Prints messages acknowledged per second (from the start
to the last acknowledgement), and how many messages a claim returned
before their due time (early) or while another claim held them
(twice: a second claim took it, or the delete with the first claim was
refused), how many were never acknowledged (lost) and how many claims
raised an error (the claimer goes on). The drivers
take turns; the table gives each trial, then redis.delay's rate over
upstream's (median).
"""

import argparse
import multiprocessing
import statistics
import sys
import threading
import time

from oslo_utils import timeutils
from zaqar.storage import errors
from zaqar.storage.redis import driver as upstream

from benchmarks import common
from benchmarks import redis_delay
from tests.common import concurrency
from tests.fixtures import services
from zaqar_delay.storage.redis import control as delay_control
from zaqar_delay.storage.redis import driver as delay_driver

DRIVERS = (('redis', upstream.DataDriver),
           ('redis.delay', delay_driver.DataDriver))
QUEUE = 'contended'
DELAYS = (0, 0, 0, 1)


def _driver(cls, url, dbid):
    """A (control, data) pair of ``cls`` on database ``dbid``, as
    ``redis_delay.py`` makes its drivers (no pipeline stages)."""
    return common.make_driver(cls, delay_control.ControlDriver,
                              redis_delay.CONF.format(url=url, dbid=dbid,
                                                      stages=''))


def _claim_all(data, due, until):
    """Claim 10 and delete them (with the claim) until the queue gives
    nothing twice in a row after the last due time, or ``until``
    (monotonic). Returns (acknowledged ids, early ids, refused ids, the
    monotonic time of the last acknowledgement, claims that raised)."""
    claims, msgs = data.claim_controller, data.message_controller
    last_due = max(due.values())
    acked, early, refused, last, empty, failed = [], [], [], None, 0, 0
    while time.monotonic() < until and empty < 2:
        try:
            cid, got = claims.create(QUEUE, {'ttl': 600, 'grace': 10},
                                     common.PROJECT, limit=10)
        except Exception:
            failed += 1     # the driver's error: the claimer goes on
            continue
        now = timeutils.utcnow_ts()
        ids = [m['id'] for m in got] if cid else []
        early += [mid for mid in ids if due[mid] > now]
        if not ids:
            empty = empty + 1 if now > last_due else 0
            time.sleep(0.01)
            continue
        empty = 0
        for mid in ids:
            try:
                msgs.delete(QUEUE, mid, common.PROJECT, claim=cid)
                acked.append(mid)
            except errors.ExceptionBase:
                refused.append(mid)
        last = time.monotonic()
    return acked, early, refused, last, failed


def _process(cls, url, dbid, due, ready, go, until, results):
    _, data = _driver(cls, url, dbid)
    ready.release()
    go.wait()
    results.put(_claim_all(data, due, until))


def _outcome(runs, started, due):
    """(messages/s, early, twice, lost, claims that raised) of the
    claimers' results."""
    acked, early, refused, lasts, failed = [], [], [], [], 0
    for got, late, no, last, raised in runs:
        failed += raised
        acked += got
        early += late
        refused += no
        if last is not None:
            lasts.append(last)
    twice = len(acked) - len(set(acked)) + len(set(refused))
    seconds = max(lasts) - started if lasts else float('nan')
    return (len(set(acked)) / seconds, len(set(early)), twice,
            len(set(due) - set(acked)), failed)


def threads(cls, url, dbid, count, claimers, seconds):
    control, data = _driver(cls, url, dbid)
    control.queue_controller.create(QUEUE, project=common.PROJECT)
    due = concurrency.post_mixed(data, QUEUE, common.PROJECT, count, DELAYS)
    runs = []
    started = time.monotonic()
    workers = [threading.Thread(
        target=lambda: runs.append(_claim_all(data, due, started + seconds)))
        for _ in range(claimers)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return _outcome(runs, started, due)


def processes(cls, url, dbid, count, claimers, seconds):
    control, data = _driver(cls, url, dbid)
    control.queue_controller.create(QUEUE, project=common.PROJECT)
    due = concurrency.post_mixed(data, QUEUE, common.PROJECT, count, DELAYS)
    fork = multiprocessing.get_context('fork')
    ready, go, results = fork.Semaphore(0), fork.Event(), fork.Queue()
    # Each process starts (a driver of its own) before the clock does.
    until = time.monotonic() + seconds + 60
    procs = [fork.Process(target=_process, args=(
        cls, url, dbid, due, ready, go, until, results))
        for _ in range(claimers)]
    for proc in procs:
        proc.start()
    for _ in procs:
        ready.acquire()
    started = time.monotonic()
    go.set()
    runs = [results.get() for _ in procs]
    for proc in procs:
        proc.join()
    return _outcome(runs, started, due)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--claimers', type=int, default=16)
    parser.add_argument('--messages', type=int, default=20000)
    parser.add_argument('--trials', type=int, default=3)
    parser.add_argument('--seconds', type=float, default=120)
    args = parser.parse_args(argv)
    server = services.redis_server()
    print('redis-server %s; %d claimers (claim 10, delete each), %d '
          'messages (1 in 4 due in a second)' % (
              server.client.info()['redis_version'], args.claimers,
              args.messages))
    print('%-10s %-12s %5s %10s %6s %6s %6s %7s' % (
        'claimers', 'driver', 'trial', 'msg/s', 'early', 'twice', 'lost',
        'errors'))
    for label, run in (('threads', threads), ('processes', processes)):
        rates = {name: [] for name, _ in DRIVERS}
        for trial in range(args.trials):
            for name, cls in DRIVERS:
                server.client.flushall()
                rate, early, twice, lost, failed = run(
                    cls, server.url, 0, args.messages, args.claimers,
                    args.seconds)
                rates[name].append(rate)
                print('%-10s %-12s %5d %10.0f %6d %6d %6d %7d' % (
                    label, name, trial + 1, rate, early, twice, lost,
                    failed))
                sys.stdout.flush()
        print('%-10s redis.delay / redis, median: %.2fx' % (
            label, statistics.median(rates['redis.delay']) /
            statistics.median(rates['redis'])))


if __name__ == '__main__':
    main()
