"""Compare ``redis`` (upstream) and ``redis.delay`` on one redis-server.

    python benchmarks/redis_delay.py [--sizes 0,1000,10000,100000,1000000]
                                     [--memory-messages 50000]

Starts its own redis-server on a free loopback port; each driver uses its
own database on it. Prints the median claim and list latency with N
delayed messages ahead of one ready message (upstream / redis.delay:
times faster), and post throughput (redis.delay / upstream) on a normal queue,
a delayed one, and with a ``delay`` in each message: through the
message pipeline alone, with the notifier stage (Zaqar's for ``redis``,
zaqar-delay's for ``redis.delay``, its in-server dispatcher off), and on
a queue with ``_dedup_key``. Then, on a fresh redis-server per driver,
the memory each message takes (``INFO memory`` before and after posting
``--memory-messages`` into one queue). The socket timeout is raised to
60 s for both drivers, so that upstream's long claim scripts are
measured rather than cut off and retried.
"""

import argparse
import itertools
import statistics
import sys
import time

from zaqar.conf import notification
from zaqar.conf import storage
from zaqar.storage import pipeline
from zaqar.storage.redis import driver as upstream

from benchmarks import common
from tests.fixtures import services
from zaqar_delay.storage.redis import control as delay_control
from zaqar_delay.storage.redis import driver as delay_driver

CONF = """
[drivers:message_store:redis]
uri = {url}?dbid={dbid}&socket_timeout=60
[drivers:management_store:redis]
uri = {url}?dbid={dbid}&socket_timeout=60
[transport]
max_message_delay = 604800
[storage]
message_pipeline = {stages}
[delay_push]
dispatch_in_server = false
"""
PROJECT = common.PROJECT
DRIVERS = (('redis', upstream.DataDriver, 'zaqar.notification.notifier'),
           ('redis.delay', delay_driver.DataDriver,
            'zaqar_delay.notification.notifier'))
# Queues of the post table: name, metadata.
QUEUES = (('normal', {}), ('delayed', {'_default_message_delay': 60}),
          ('dedup', {'_dedup_key': 'k'}),
          ('dedup-delayed', {'_dedup_key': 'k',
                             '_default_message_delay': 60}))
# Rows of the post table: label, queue, the delay field of each message.
POSTS = (('normal (no delay field)', 'normal', None),
         ('delayed (queue default)', 'delayed', None),
         ('delayed (delay: 60)', 'normal', 60))
MEMORY = (('{"i": k} delayed', 60, 0), ('{"i": k} ready', 0, 0),
          ('80-byte pad, delayed', 60, 80), ('80-byte pad, ready', 0, 80))


def drivers(url, dbid, stages=False):
    """{name: (control, pipeline data driver)} of both drivers."""
    found = {}
    for offset, (name, cls, stage) in enumerate(DRIVERS):
        control, data = common.make_driver(
            cls, delay_control.ControlDriver, CONF.format(
                url=url, dbid=dbid + offset, stages=stage if stages else ''))
        data.conf.register_opts(notification.ALL_OPTS,
                                group=notification.GROUP_NAME)
        data.conf.register_opts(storage.ALL_OPTS, group=storage.GROUP_NAME)
        found[name] = control, pipeline.DataDriver(data.conf, data, control)
    return found


def post_rate(data, queue, delay, seconds, serial, server):
    """(messages/s, client CPU µs a call, redis CPU µs a call) of posts
    of 10 for ``seconds``, each body with a new ``k``."""
    calls, cpu, started = 0, time.process_time(), time.perf_counter()
    served = server_cpu(server)
    while time.perf_counter() - started < seconds:
        msgs = [{'ttl': 3600, 'body': {'k': next(serial), 'n': i}}
                for i in range(10)]
        if delay is not None:
            for msg in msgs:
                msg['delay'] = delay
        data.message_controller.post(queue, msgs, common.CLIENT, PROJECT)
        calls += 1
    elapsed = time.perf_counter() - started
    return (calls * 10 / elapsed,
            (time.process_time() - cpu) / calls * 1e6,
            (server_cpu(server) - served) / calls * 1e6)


def server_cpu(server):
    found = server.client.info('cpu')
    return found['used_cpu_user'] + found['used_cpu_sys']


def rates_of(drivers_, queue, delay, trials, seconds, server):
    """{driver name: medians of post_rate}, the drivers taking turns for
    ``trials`` runs of ``seconds`` each (so that a change in the
    machine's load falls on both)."""
    serial = itertools.count()
    runs = {name: [] for name in drivers_}
    for _ in range(trials):
        for name, (_, data) in drivers_.items():
            runs[name].append(post_rate(data, queue, delay, seconds, serial,
                                        server))
    return {name: [statistics.median(column) for column in zip(*found)]
            for name, found in runs.items()}


def posts(variants, trials, seconds, server):
    print('\npost throughput, 10 messages a call, messages/s (median of '
          '%d runs of %.1f s each); CPU a call, microseconds, of the '
          'client and of redis-server' % (trials, seconds))
    print('%-51s %8s %12s %7s %13s %13s' % (
        'queue', 'redis', 'redis.delay', 'ratio', 'redis CPU',
        'delay CPU'))
    for suffix, drivers_ in variants:
        for label, queue, delay in POSTS:
            if suffix.startswith(', _dedup_key'):
                queue = 'dedup' if queue == 'normal' else 'dedup-delayed'
            found = rates_of(drivers_, queue, delay, trials, seconds,
                             server)
            up, ours = found['redis'], found['redis.delay']
            print('%-51s %8.0f %12.0f %6.2fx %6.0f + %4.0f %6.0f + %4.0f' % (
                label + suffix, up[0], ours[0], ours[0] / up[0],
                up[1], up[2], ours[1], ours[2]))
            sys.stdout.flush()


def claims(drivers_, sizes, repeats, budget):
    print('\nclaim latency (limit 1), list latency (a page of 10) and pop'
          ' latency (limit 1), median ms (N delayed ahead; upstream\'s'
          ' list page is empty behind delayed messages: -)')
    print('%10s %12s %12s %10s %12s %12s %12s %12s' % (
        'N', 'claim redis', 'redis.delay', 'speed-up', 'list redis',
        'redis.delay', 'pop redis', 'redis.delay'))
    ahead = 0
    for size in sizes:
        row = {}
        for name, (_, data) in drivers_.items():
            common.post_delayed(data, 'claims', size - ahead)
            row[name] = common.claim_ms(data, 'claims', repeats, budget)
            if size == 0 or name == 'redis.delay':
                row[name] += common.list_ms(data, 'claims', repeats, budget)
            else:
                row[name] += (None, None)
            row[name] += common.pop_ms(data, 'claims', repeats, budget)
        ahead = size
        up, ours = row['redis'], row['redis.delay']
        print('%10d %9.3f(%2d) %9.3f(%2d) %9.1fx %12s %9.3f(%2d) '
              '%9.3f(%2d) %9.3f(%2d)' % (
                  size, up[0], up[1], ours[0], ours[1], up[0] / ours[0],
                  '-' if up[2] is None else '%9.3f(%2d)' % up[2:4],
                  ours[2], ours[3], up[4], up[5], ours[4], ours[5]))
        sys.stdout.flush()


def bytes_per_message(count):
    """{(row label, driver name): bytes}, a fresh redis-server each."""
    found = {}
    for name, cls, _ in DRIVERS:
        server = services.RedisServer()
        try:
            control, data = common.make_driver(
                cls, delay_control.ControlDriver,
                CONF.format(url=server.url, dbid=0, stages=''))
            for n, (label, delay, pad) in enumerate(MEMORY):
                queue = 'memory-%d' % n
                control.queue_controller.create(queue, project=PROJECT)
                before = server.client.info('memory')['used_memory']
                for start in range(0, count, 100):
                    body = {'i': 0}
                    if pad:
                        body['p'] = 'x' * pad
                    data.message_controller.post(queue, [
                        {'ttl': 86400, 'delay': delay,
                         'body': dict(body, i=k)}
                        for k in range(start, min(count, start + 100))],
                        common.CLIENT, PROJECT)
                after = server.client.info('memory')['used_memory']
                found[label, name] = (after - before) / count
        finally:
            server.stop()
    return found


def memory(count):
    found = bytes_per_message(count)
    print('\nmemory per message, bytes (%d messages in one queue, '
          'a fresh redis-server per driver)' % count)
    print('%-24s %8s %12s %7s' % ('body', 'redis', 'redis.delay', 'ratio'))
    for label, _, _ in MEMORY:
        up, ours = found[label, 'redis'], found[label, 'redis.delay']
        print('%-24s %8.0f %12.0f %6.2fx' % (label, up, ours, ours / up))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='0,1000,10000,100000,1000000')
    parser.add_argument('--repeats', type=int, default=21)
    parser.add_argument('--budget', type=float, default=20.0,
                        help='seconds of claims per cell at most')
    parser.add_argument('--trials', type=int, default=7,
                        help='post runs per driver and row (median)')
    parser.add_argument('--seconds', type=float, default=0.5,
                        help='seconds of posting per run')
    parser.add_argument('--memory-messages', type=int, default=50000)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(',') if s]

    server = services.redis_server()
    print('redis-server %s on %s' % (
        server.client.info()['redis_version'], server.url))
    plain, notified = drivers(server.url, 0), drivers(server.url, 4, True)
    for drivers_ in (plain, notified):
        for control, _ in drivers_.values():
            control.queue_controller.create('claims', project=PROJECT)
            for queue, metadata in QUEUES:
                control.queue_controller.create(queue, project=PROJECT)
                control.queue_controller.set_metadata(queue, metadata,
                                                      project=PROJECT)
    if sizes:
        claims(plain, sizes, args.repeats, args.budget)
    posts((('', plain), (', notifier stage', notified),
           (', _dedup_key', plain),
           (', _dedup_key, notifier stage', notified)),
          args.trials, args.seconds, server)
    if args.memory_messages:
        memory(args.memory_messages)


if __name__ == '__main__':
    main()
