"""What ``wait_replicas`` costs ``redis.delay``, on one Sentinel group.

    python benchmarks/redis_replication.py [--seconds 3] [--rounds 3]
        [--durable]

Starts a primary, one replica and a sentinel (the tests' redis-server
binary, loopback, no persistence unless ``--durable``: an append-only
file synced at every write on both), and two ``redis.delay`` drivers on
the Sentinel URI, in two databases: ``[drivers:message_store:
redis.delay] wait_replicas`` 0 and 1. Rounds alternate between them;
each cell is the median of the rounds. Prints posts (10 messages a
call, and 1), and claim + delete pairs (claim limit 1, then delete
with the claim), per second, and the ratio wait_replicas=1 / 0.
"""

import argparse
import statistics
import time


from benchmarks import common
from tests.fixtures import redis_sentinel
from zaqar_delay.storage.redis import control as delay_control
from zaqar_delay.storage.redis import driver as delay_driver

CONF = """
[drivers:message_store:redis]
uri = {uri}
[drivers:management_store:redis]
uri = {uri}
[drivers:message_store:redis.delay]
wait_replicas = {wait}
wait_timeout_ms = 1000
"""
PROJECT = common.PROJECT
CLAIM = {'ttl': 60, 'grace': 60}


def posts(data, size, seconds):
    """Messages posted a second, ``size`` a call."""
    msgs = [{'ttl': 3600, 'body': {'n': i}} for i in range(size)]
    sent, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        data.message_controller.post('bench', msgs, common.CLIENT, PROJECT)
        sent += size
    return sent / (time.perf_counter() - started)


def claims(data, seconds):
    """Claim + delete pairs a second, on a queue with ready messages."""
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        claim_id, msgs = data.claim_controller.create(
            'bench', CLAIM, PROJECT, limit=1)
        if not msgs:
            raise AssertionError('nothing left to claim: post more')
        data.message_controller.delete('bench', msgs[0]['id'], PROJECT,
                                       claim=claim_id)
        done += 1
    return done / (time.perf_counter() - started)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--seconds', type=float, default=3.0,
                        help='seconds of each cell in each round')
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--durable', action='store_true')
    args = parser.parse_args(argv)

    group = redis_sentinel.SentinelGroup(replicas=1, sentinels=1,
                                         durable=args.durable)
    try:
        print('redis-server %s, primary, 1 replica, 1 sentinel; %s' % (
            group.primary().client.info()['redis_version'],
            'appendfsync always' if args.durable else 'no persistence'))
        drivers = {}
        for wait in (0, 1):
            _, data = drivers[wait] = common.make_driver(
                delay_driver.DataDriver, delay_control.ControlDriver,
                CONF.format(uri=group.uri(dbid=wait, socket_timeout=2),
                            wait=wait))
            drivers[wait][0].queue_controller.create('bench',
                                                     project=PROJECT)
        cells = {}
        for _ in range(args.rounds):
            for wait, (_, data) in drivers.items():
                for label, measure in (
                        ('post, 10 messages a call (msg/s)',
                         lambda: posts(data, 10, args.seconds)),
                        ('post, 1 message a call (msg/s)',
                         lambda: posts(data, 1, args.seconds)),
                        ('claim + delete, limit 1 (pairs/s)',
                         lambda: claims(data, args.seconds))):
                    cells.setdefault(label, {}).setdefault(
                        wait, []).append(measure())
        print('\n%-36s %12s %12s %8s' % ('operation', 'wait 0', 'wait 1',
                                         'ratio'))
        for label, by_wait in cells.items():
            off, on = (statistics.median(by_wait[w]) for w in (0, 1))
            print('%-36s %12.0f %12.0f %7.2fx' % (label, off, on, on / off))
    finally:
        group.stop()


if __name__ == '__main__':
    main()
