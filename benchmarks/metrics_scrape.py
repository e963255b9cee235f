"""Scrape time of the delay metrics collector at 10, 100, 1,000 queues.

    PYTHONPATH=. python benchmarks/metrics_scrape.py \
        [--stores redis,mongodb,swift] [--queues 10,100,1000] \
        [--backlog 1000] [--repeat 5]

For each store (redis-server, the MongoDB test server, Swift with
Keystone, as the tests start them), queues with dotted names are added
up to each count, each holding one delayed and two due messages; a
scrape (``StoreCollector.collect()``, what an HTTP scrape runs) is then
timed, median of ``--repeat``, and divided by the queues. With
``--backlog N`` the first queue then gets N more delayed messages and
the largest count is scraped again: the cost per queue does not grow
with a queue's backlog.
"""

import argparse
from concurrent import futures
import statistics
import time
import uuid

from zaqar.storage.mongodb import driver as mongodb_upstream
from zaqar.storage import pipeline
from zaqar.storage.redis import driver as redis_upstream

from benchmarks import common
from tests.fixtures import openstack
from tests.fixtures import services
from tests.fixtures import swift_store
from zaqar_delay.metrics import collector
from zaqar_delay.metrics import stores
from zaqar_delay.storage.mongodb import driver as mongodb_delay
from zaqar_delay.storage.redis import control as redis_control
from zaqar_delay.storage.redis import driver as redis_delay
from zaqar_delay.storage.swift import driver as swift_delay

REDIS_CONF = """
[drivers:message_store:redis]
uri = {url}?dbid=5&socket_timeout=60
[drivers:management_store:redis]
uri = {url}?dbid=6&socket_timeout=60
[transport]
max_message_delay = 86400
"""

MONGO_CONF = """
[DEFAULT]
unreliable = True
[drivers:message_store:mongodb]
uri = {url}
database = bench_metrics_{tag}
[drivers:management_store:mongodb]
uri = {url}
database = bench_metrics_{tag}_mgmt
[transport]
max_message_delay = 86400
"""


def redis_drivers():
    server = services.redis_server()
    server.client.flushall()
    return common.make_driver(redis_delay.DataDriver,
                              redis_control.ControlDriver,
                              REDIS_CONF.format(url=server.url))


def mongodb_drivers():
    return common.make_driver(
        mongodb_delay.DataDriver, mongodb_upstream.ControlDriver,
        MONGO_CONF.format(url=services.mongo_server().url,
                          tag=uuid.uuid4().hex[:6]))


def swift_drivers():
    stack = services.keystone_swift()
    return common.make_driver(
        swift_delay.DataDriver, redis_upstream.ControlDriver,
        swift_store.DRIVER_CONF.format(
            admin=openstack.ADMIN, password=openstack.PASSWORD,
            keystone=stack.keystone, region=openstack.REGION,
            redis=services.redis_server().url) +
        '\n[transport]\nmax_message_delay = 86400\n')


DRIVERS = {'redis': redis_drivers, 'mongodb': mongodb_drivers,
           'swift': swift_drivers}


def add_queues(control, data, project, start, stop, workers=8):
    # Through the storage pipeline, as Zaqar creates a queue: its stages
    # index the queue in the message store.
    queues = pipeline.DataDriver(data.conf, data, control).queue_controller

    def add(n):
        name = 'bench.q-%04d' % n
        queues.create(name, project=project)
        data.message_controller.post(name, [
            {'ttl': 7200, 'body': 'later', 'delay': 3600},
            {'ttl': 7200, 'body': 'now', 'delay': 0},
            {'ttl': 7200, 'body': 'now', 'delay': 0}], common.CLIENT,
            project)
    with futures.ThreadPoolExecutor(workers) as pool:
        list(pool.map(add, range(start, stop)))


def scrape_ms(collect, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        families = collect.collect()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), families


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--stores', default='redis,mongodb,swift')
    parser.add_argument('--queues', default='10,100,1000')
    parser.add_argument('--backlog', type=int, default=1000)
    parser.add_argument('--repeat', type=int, default=5)
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.queues.split(',')]
    print('%-8s %8s %10s %12s %8s' % (
        'store', 'queues', 'scrape ms', 'ms / queue', 'series'))
    for name in args.stores.split(','):
        control, data = DRIVERS[name]()
        # A project of its own: the allow-list leaves out whatever else
        # a shared store (a Swift account) holds.
        project = 'bench.' + uuid.uuid4().hex[:8]
        store = stores.Store('', data, control, stores.reader(data))
        collect = collector.StoreCollector(
            lambda: [store], max(counts), [project + '/*'])
        have = 0
        for count in counts:
            add_queues(control, data, project, have, count)
            have = count
            took, families = scrape_ms(collect, args.repeat)
            series = sum(len(f.samples) for f in families)
            print('%-8s %8d %10.1f %12.3f %8d' % (
                name, count, took, took / count, series))
        if args.backlog:
            for start in range(0, args.backlog, 100):
                data.message_controller.post('bench.q-0000', [
                    {'ttl': 7200, 'body': i, 'delay': 3600}
                    for i in range(min(100, args.backlog - start))],
                    common.CLIENT, project)
            took, families = scrape_ms(collect, args.repeat)
            print('%-8s %8d %10.1f %12.3f %8d  (+%d delayed in one queue)'
                  % (name, have, took, took / have,
                     sum(len(f.samples) for f in families), args.backlog))


if __name__ == '__main__':
    main()
