"""Retries and deduplication on ``redis.delay``: what they cost.

    python benchmarks/retries_redis.py [--sizes 0,100000] [--rounds 9]

Starts its own redis-server. Prints, in one run:

- post throughput (10 messages a post, one thread) into a queue without
  ``_dedup_key`` and into one with it (every message a new value), and
  the ratio (target: >= 0.8);
- the median time of a claim/release cycle on a queue with
  ``_retry_backoff`` (claim 10 ready messages, release them: they back
  off), with N messages waiting (delayed a day) in the same queue, and
  the ratio to N = 0 (target: flat).
"""

import argparse
import statistics
import time

from zaqar.storage.redis import driver as upstream

from benchmarks import common
from benchmarks import redis_delay
from tests.fixtures import services
from zaqar_delay.storage.redis import driver as delay_driver

PROJECT = common.PROJECT


def post_rate(data, queue, seconds):
    sent, serial, started = 0, 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        data.message_controller.post(
            queue, [{'ttl': 3600, 'body': {'job': serial + i}}
                    for i in range(10)], common.CLIENT, PROJECT)
        sent += 10
        serial += 10
    return sent / (time.perf_counter() - started)


def cycle_ms(data, queue, repeats):
    """Median ms of claiming 10 ready messages and releasing them."""
    times = []
    for _ in range(repeats):
        data.message_controller.post(
            queue, [{'ttl': 3600, 'body': i, 'delay': 0} for i in range(10)],
            common.CLIENT, PROJECT)
        started = time.perf_counter()
        claim_id, msgs = data.claim_controller.create(
            queue, {'ttl': 60, 'grace': 60}, PROJECT, limit=10)
        data.claim_controller.delete(queue, claim_id, PROJECT)
        times.append((time.perf_counter() - started) * 1000)
        if len(list(msgs)) != 10:
            raise AssertionError('claimed %d, wanted 10' % len(msgs))
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='0,100000')
    parser.add_argument('--seconds', type=float, default=1.0)
    parser.add_argument('--rounds', type=int, default=9)
    parser.add_argument('--repeats', type=int, default=51)
    args = parser.parse_args(argv)
    server = services.redis_server()
    print('redis-server %s on %s' % (
        server.client.info()['redis_version'], server.url))
    control, data = common.make_driver(
        delay_driver.DataDriver, upstream.ControlDriver,
        redis_delay.CONF.format(url=server.url, dbid=6, stages=''))
    queues = control.queue_controller
    for name, meta in (('plain', {}), ('dedup', {'_dedup_key': 'job'}),
                       ('retry', {'_retry_backoff': {'initial': 3600}})):
        queues.create(name, project=PROJECT)
        queues.set_metadata(name, meta, project=PROJECT)

    # Alternate the two queues in short rounds, so that both see the
    # same machine; the median round of each is reported.
    rates = {'plain': [], 'dedup': []}
    for _ in range(args.rounds):
        for name in rates:
            rates[name].append(post_rate(data, name, args.seconds))
    plain, dedup = (statistics.median(rates[n]) for n in ('plain', 'dedup'))
    print('\nposts, messages/s (10 a post; median of %d alternating '
          'rounds of %.1f s)' % (args.rounds, args.seconds))
    print('%16s %16s %8s' % ('no _dedup_key', 'with _dedup_key', 'ratio'))
    print('%16.0f %16.0f %8.2f' % (plain, dedup, dedup / plain))

    print('\nclaim 10 + release with _retry_backoff, median ms '
          '(N waiting)')
    print('%9s %9s %6s' % ('N', 'ms', 'x0'))
    base, have = None, 0
    for size in (int(s) for s in args.sizes.split(',')):
        common.post_delayed(data, 'retry', size - have)
        have = size
        ms = cycle_ms(data, 'retry', args.repeats)
        base = base or ms
        print('%9d %9.2f %6.2f' % (size, ms, ms / base))


if __name__ == '__main__':
    main()
