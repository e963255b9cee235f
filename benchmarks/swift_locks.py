"""How many winners racing lock takers get on one Swift.

    python benchmarks/swift_locks.py [--trials 300] [--writers 2,6]

Starts Keystone and a one-replica Swift on loopback (as the tests do).
For each writer count, --trials times: that many threads, released at
once, take one new name. Prints, for two ways to take a lock, how many
trials had more than one winner (two holders of one lock) and how many
had none (the name stays closed until its door ends), and the median
time of a take:

- ``create+readback``: a create-only write (``If-None-Match: *``), then
  a read of the lock; the taker wins when it reads its own name (what
  ``swift.delay`` did before its locks were splitters);
- ``splitter``: ``zaqar_delay.storage.swift.locks.take`` (bid, create,
  read the bid back, settle).
"""

import argparse
import statistics
import sys
import threading
import time
import uuid

from benchmarks import swift_delay
from tests.fixtures import openstack
from tests.fixtures import services
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import driver as delay_driver
from zaqar_delay.storage.swift import locks

CONTAINER = 'zaqar_delay_bench_locks'


def create_and_read_back(client, name, holder, expires, now):
    if not locks.create(client, CONTAINER, name, holder.encode(), expires):
        return False
    held = locks.read(client, CONTAINER, name)
    return held is not None and held.holder == holder


def splitter(client, name, holder, expires, now):
    return locks.take(client, CONTAINER, name, holder, expires, now)


def race(client, take, writers, trials):
    """(trials with several winners, trials with none, median ms)."""
    several = none = 0
    times = []
    for _ in range(trials):
        name = uuid.uuid4().hex
        now = int(time.time())
        won = [None] * writers
        start = threading.Barrier(writers)

        def taker(i):
            start.wait()
            t0 = time.perf_counter()
            won[i] = take(client, name, 'taker-%d' % i, now + 600, now)
            times.append((time.perf_counter() - t0) * 1000)
        threads = [threading.Thread(target=taker, args=(i,))
                   for i in range(writers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        count = sum(1 for w in won if w)
        several += count > 1
        none += count == 0
    return several, none, statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--trials', type=int, default=300)
    parser.add_argument('--writers', default='2,6')
    args = parser.parse_args(argv)
    stack = services.keystone_swift()
    conf_text = swift_store.DRIVER_CONF.format(
        admin=openstack.ADMIN, password=openstack.PASSWORD,
        keystone=stack.keystone, region=openstack.REGION,
        redis=services.redis_server().url)
    client = swift_delay.make(delay_driver.DataDriver,
                              conf_text)[1].connection
    client.put_container(CONTAINER)
    print('%8s %-16s %7s %9s %8s %8s' % (
        'writers', 'take', 'trials', 'several', 'none', 'ms'))
    for writers in [int(w) for w in args.writers.split(',')]:
        for label, take in (('create+readback', create_and_read_back),
                            ('splitter', splitter)):
            several, none, ms = race(client, take, writers, args.trials)
            print('%8d %-16s %7d %9d %8d %8.1f' % (
                writers, label, args.trials, several, none, ms))
            sys.stdout.flush()


if __name__ == '__main__':
    main()
