"""What counting claims for the metrics costs a ``mongodb.delay`` claim.

    python -m benchmarks.claim_metrics_mongodb [--sizes 0,10000]
                                               [--repeats 41] [--url URL]

The server is ``--url`` (or ZAQAR_DELAY_TEST_MONGODB_URL), else a
secantusdb started here. With N delayed messages ahead (due in an hour),
posts ``repeats`` x 2 messages with a delay of 2 s, waits until they are
due, then claims them one at a time (limit 1), each claim deleting its
message: in turns, one claim as it is (it took a delayed message, so it
adds to the counters: one ``$inc`` upsert) and one with
``storage.mongodb.counters.add`` made a no-op. Prints the median ms of
each, and the counters at the end.
"""

import argparse
import os
import statistics
import sys
import time

from zaqar.storage.mongodb import driver as upstream

from benchmarks import common
from tests.fixtures import services
from zaqar_delay.storage.mongodb import counters
from zaqar_delay.storage.mongodb import driver as delay_driver

CONF = """
[DEFAULT]
unreliable = True
[drivers:message_store:mongodb]
uri = {url}
database = bench_claim_metrics
[drivers:management_store:mongodb]
uri = {url}
database = bench_claim_metrics_mgmt
[transport]
max_message_delay = 604800
"""
QUEUE = 'claims'
PROJECT = common.PROJECT
WAIT = 2


def claim_ms(data):
    t0 = time.perf_counter()
    claim_id, msgs = data.claim_controller.create(
        QUEUE, {'ttl': 60, 'grace': 60}, PROJECT, limit=1)
    elapsed = (time.perf_counter() - t0) * 1000
    if len(msgs) != 1:
        raise AssertionError('claim returned %r' % (msgs,))
    data.message_controller.delete(QUEUE, msgs[0]['id'], PROJECT,
                                   claim=claim_id)
    return elapsed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='0,10000')
    parser.add_argument('--repeats', type=int, default=41)
    parser.add_argument('--url', help='MongoDB server to use')
    args = parser.parse_args(argv)
    if args.url:
        os.environ['ZAQAR_DELAY_TEST_MONGODB_URL'] = args.url
    server = services.mongo_server()
    print('MongoDB server %s on %s' % (server.version, server.url))
    control, data = common.make_driver(
        delay_driver.DataDriver, upstream.ControlDriver,
        CONF.format(url=server.url))
    for database in data.message_databases:
        database.messages.delete_many({})
    data.message_databases[0][counters.COLLECTION].delete_many({})
    control.queue_controller.create(QUEUE, project=PROJECT)
    adds = counters.add
    print('claim of a delayed message come due, limit 1, median ms of %d '
          '(N delayed ahead)' % args.repeats)
    print('%10s %12s %14s %8s' % ('N', 'counting', 'not counting',
                                  'ratio'))
    ahead = 0
    for size in [int(s) for s in args.sizes.split(',') if s]:
        common.post_delayed(data, QUEUE, size - ahead)
        ahead = size
        for start in range(0, 2 * args.repeats, 100):
            data.message_controller.post(QUEUE, [
                {'ttl': 600, 'body': n, 'delay': WAIT}
                for n in range(start, min(2 * args.repeats, start + 100))],
                common.CLIENT, PROJECT)
        time.sleep(WAIT + 1)
        times = {True: [], False: []}
        for _ in range(args.repeats):
            for counting in (True, False):
                counters.add = adds if counting else (lambda *a: None)
                try:
                    times[counting].append(claim_ms(data))
                finally:
                    counters.add = adds
        on, off = (statistics.median(times[True]),
                   statistics.median(times[False]))
        print('%10d %12.2f %14.2f %7.2fx' % (size, on, off, on / off))
        sys.stdout.flush()
    print('counters: %s' % {
        k: v for k, v in sorted(counters.read(data)._asdict().items())})


if __name__ == '__main__':
    main()
