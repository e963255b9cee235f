"""Compare ``redis`` (upstream) and ``redis.delay`` on one redis-server.

    python benchmarks/redis_delay.py [--sizes 0,1000,10000,100000,1000000]

Starts its own redis-server on a free loopback port; each driver uses its
own database on it. Prints the median claim latency with N delayed
messages ahead of one ready message, and post throughput on a normal and
a delayed queue, with the ratio upstream / redis.delay (claims: times
faster) and redis.delay / upstream (posts). The socket timeout is raised
to 60 s for both drivers, so that upstream's long claim scripts are
measured rather than cut off and retried.
"""

import argparse
import statistics
import sys
import tempfile
import time
import uuid

from oslo_config import cfg
from osprofiler import opts as profiler_opts
from zaqar.common import cache as zaqar_cache
from zaqar.conf import default
from zaqar.conf import drivers
from zaqar.conf import profiler
from zaqar.storage.redis import driver as upstream

from tests.functional import services
from zaqar_delay.storage.redis import driver as delay_driver

CONF = """
[drivers:message_store:redis]
uri = {url}?dbid={dbid}&socket_timeout=60
[drivers:management_store:redis]
uri = {url}?dbid={dbid}&socket_timeout=60
[transport]
max_message_delay = 604800
"""
CLIENT = str(uuid.uuid4())
PROJECT = 'bench'


def make_driver(cls, url, dbid):
    with tempfile.NamedTemporaryFile('w', suffix='.conf',
                                     delete=False) as f:
        f.write(CONF.format(url=url, dbid=dbid))
    conf = cfg.ConfigOpts()
    conf(args=[], project='zaqar', default_config_files=[f.name])
    conf.register_opts(default.ALL_OPTS)
    conf.register_opts(drivers.ALL_OPTS, group=drivers.GROUP_NAME)
    profiler_opts.set_defaults(conf)
    conf.register_opts(profiler.ALL_OPTS, group=profiler.GROUP_NAME)
    zaqar_cache.register_config(conf)
    control = upstream.ControlDriver(conf, zaqar_cache.get_cache(conf))
    return control, cls(conf, control.cache, control)


def post_delayed(data, queue, count, batch=1000):
    while count > 0:
        n = min(batch, count)
        data.message_controller.post(
            queue, [{'ttl': 86400, 'body': i, 'delay': 3600}
                    for i in range(n)], CLIENT, PROJECT)
        count -= n


def claim_ms(data, queue, repeats, budget):
    """Median ms of a limit-1 claim that has to find one ready message."""
    times = []
    started = time.monotonic()
    for _ in range(repeats):
        (mid,) = data.message_controller.post(
            queue, [{'ttl': 600, 'body': 'ready', 'delay': 0}],
            CLIENT, PROJECT)
        t0 = time.perf_counter()
        claim_id, msgs = data.claim_controller.create(
            queue, {'ttl': 60, 'grace': 60}, PROJECT, limit=1)
        times.append((time.perf_counter() - t0) * 1000)
        got = [m['id'] for m in msgs]
        if got != [mid]:
            raise AssertionError('claim returned %r, wanted %r' % (got, mid))
        data.message_controller.delete(queue, mid, PROJECT, claim=claim_id)
        if time.monotonic() - started > budget:
            break
    return statistics.median(times), len(times)


def post_rate(data, queue, delay, seconds=2.0):
    msgs = [{'ttl': 3600, 'body': {'n': i}} for i in range(10)]
    if delay is not None:
        for msg in msgs:
            msg['delay'] = delay
    sent, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        data.message_controller.post(queue, msgs, CLIENT, PROJECT)
        sent += len(msgs)
    return sent / (time.perf_counter() - started)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='0,1000,10000,100000,1000000')
    parser.add_argument('--repeats', type=int, default=21)
    parser.add_argument('--budget', type=float, default=20.0,
                        help='seconds of claims per cell at most')
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(',')]

    server = services.redis_server()
    print('redis-server %s on %s' % (
        server.client.info()['redis_version'], server.url))
    drivers_ = {'redis': make_driver(upstream.DataDriver, server.url, 0),
                'redis.delay': make_driver(delay_driver.DataDriver,
                                           server.url, 2)}
    for control, _ in drivers_.values():
        control.queue_controller.create('claims', project=PROJECT)
        control.queue_controller.create('normal', project=PROJECT)
        control.queue_controller.create('delayed', project=PROJECT)
        control.queue_controller.set_metadata(
            'delayed', {'_default_message_delay': 60}, project=PROJECT)

    print('\nclaim latency, limit 1, median ms (N delayed ahead)')
    print('%10s %12s %12s %10s' % ('N', 'redis', 'redis.delay',
                                   'speed-up'))
    ahead = 0
    for size in sizes:
        row = {}
        for name, (_, data) in drivers_.items():
            post_delayed(data, 'claims', size - ahead)
            row[name] = claim_ms(data, 'claims', args.repeats, args.budget)
        ahead = size
        print('%10d %9.3f(%2d) %9.3f(%2d) %9.1fx' % (
            size, row['redis'][0], row['redis'][1], row['redis.delay'][0],
            row['redis.delay'][1], row['redis'][0] / row['redis.delay'][0]))
        sys.stdout.flush()

    print('\npost throughput, 10 messages a call, messages/s')
    print('%-28s %10s %12s %8s' % ('queue', 'redis', 'redis.delay',
                                   'ratio'))
    for label, queue, delay in (
            ('normal (no delay field)', 'normal', None),
            ('delayed (queue default)', 'delayed', None),
            ('delayed (delay: 60)', 'delayed', 60)):
        rates = {name: post_rate(data, queue, delay)
                 for name, (_, data) in drivers_.items()}
        print('%-28s %10.0f %12.0f %7.2fx' % (
            label, rates['redis'], rates['redis.delay'],
            rates['redis.delay'] / rates['redis']))


if __name__ == '__main__':
    main()
