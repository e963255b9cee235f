"""What counting claims for the metrics costs a ``redis.delay`` claim.

    python benchmarks/claim_metrics_redis.py [--sizes 0,10000,100000]
                                             [--repeats 41]

Starts its own redis-server on a free loopback port and two
``redis.delay`` drivers on it, each with its own queue: one runs the
claim script as it is, the other the same script with its
``add_counts`` call taken out (nothing written to ``keys.METRICS``).
With N delayed messages ahead in each queue, prints the median latency
of a limit-1 claim of a message posted without a delay (never counted:
what a normal queue pays) and of one posted with a delay of 5 s that
has come due (counted: lateness bucket, sum and count, three HINCRBYs),
with and without counting, all four taking turns. The drivers' clock
is injected: it moves 5 s forward for each delayed message, so no real
wait is needed. Then prints the store's counters.
"""

import argparse
import statistics
import sys
import time


from benchmarks import common
from benchmarks import redis_delay
from tests.fixtures import services
from zaqar_delay.storage.redis import control as delay_control
from zaqar_delay.storage.redis import driver as delay_driver
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import scripting

QUEUES = ('counted', 'not-counted')
PROJECT = common.PROJECT
WAIT = 5


def claim_ms(data, queue, clock, delay):
    """ms of a limit-1 claim of one message posted ``delay`` s before
    (by the injected clock) and due at the claim."""
    (mid,) = data.message_controller.post(
        queue, [{'ttl': 600, 'body': 'x', 'delay': delay}], common.CLIENT,
        PROJECT)
    clock[0] += delay
    return common.one_claim_ms(data, queue, mid)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='0,10000,100000')
    parser.add_argument('--repeats', type=int, default=41)
    args = parser.parse_args(argv)
    server = services.redis_server()
    print('redis-server %s on %s' % (
        server.client.info()['redis_version'], server.url))
    clock = [int(time.time())]
    server.client.flushall()
    found = {}
    for queue in QUEUES:
        control, data = common.make_driver(
            delay_driver.DataDriver, delay_control.ControlDriver,
            redis_delay.CONF.format(url=server.url, dbid=9, stages=''))
        control.queue_controller.create(queue, project=PROJECT)
        data.now = lambda: clock[0]
        found[queue] = data
    # The call at the end of the script (not the function's definition).
    silent = scripting.source('claim').replace(
        '\nadd_counts(metrics, counted)\n', '\n')
    found['not-counted'].scripts._scripts['claim'] = (
        found['not-counted'].connection.register_script(silent))
    print('claim latency, limit 1, median ms of %d (N delayed ahead)'
          % args.repeats)
    print('%10s %13s %13s %13s %13s' % (
        'N', 'no delay', 'no delay', 'delayed', 'delayed'))
    print('%10s %13s %13s %13s %13s' % (
        '', 'counting', 'not counting', 'counting', 'not counting'))
    ahead = 0
    for size in [int(s) for s in args.sizes.split(',') if s]:
        for queue in QUEUES:
            common.post_delayed(found[queue], queue, size - ahead)
        ahead = size
        times = {}
        for _ in range(args.repeats):
            for delay in (0, WAIT):
                for queue in QUEUES:
                    times.setdefault((delay, queue), []).append(
                        claim_ms(found[queue], queue, clock, delay))
        print('%10d %13.3f %13.3f %13.3f %13.3f' % ((size,) + tuple(
            statistics.median(times[delay, queue])
            for delay in (0, WAIT) for queue in QUEUES)))
        sys.stdout.flush()
    print('counters: %s' % {
        k.decode(): int(v) for k, v in sorted(
            data.connection.hgetall(keys.METRICS).items())})


if __name__ == '__main__':
    main()
