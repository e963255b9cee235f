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
import sys

from zaqar.storage.redis import driver as upstream

from benchmarks import common
from tests.fixtures import services
from zaqar_delay.storage.redis import driver as delay_driver

CONF = """
[drivers:message_store:redis]
uri = {url}?dbid={dbid}&socket_timeout=60
[drivers:management_store:redis]
uri = {url}?dbid={dbid}&socket_timeout=60
[transport]
max_message_delay = 604800
"""
PROJECT = common.PROJECT


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
    drivers_ = {
        name: common.make_driver(cls, upstream.ControlDriver, CONF.format(
            url=server.url, dbid=dbid))
        for name, cls, dbid in (('redis', upstream.DataDriver, 0),
                                ('redis.delay', delay_driver.DataDriver, 2))}
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
            common.post_delayed(data, 'claims', size - ahead)
            row[name] = common.claim_ms(data, 'claims', args.repeats,
                                        args.budget)
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
        rates = {name: common.post_rate(data, queue, delay)
                 for name, (_, data) in drivers_.items()}
        print('%-28s %10.0f %12.0f %7.2fx' % (
            label, rates['redis'], rates['redis.delay'],
            rates['redis.delay'] / rates['redis']))


if __name__ == '__main__':
    main()
