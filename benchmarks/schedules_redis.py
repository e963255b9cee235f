"""Schedules on ``redis.delay``: tick lateness and idle pass cost.

    python benchmarks/schedules_redis.py [--sizes 10,1000,10000]
        [--per-queue 10] [--seconds 70] [--repeats 21] [--no-pushes]

Starts its own redis-server. For each N, N schedules over N/per-queue
queues (10,000 over 1,000 by default), each ``every`` 50 to 69 seconds
(so ticks spread over the seconds, as many schedules' would), then:

- idle pass: the median time of one schedule pass that finds nothing
  due (every queue's next look an hour away), with N schedules indexed;
  x0 is that time over the one with the smallest N (flat means ~1);
- lateness: one dispatcher (``push.runner.Runner``: the schedule pass
  and the push pass, in a thread) runs for ``--seconds``; a tick's
  lateness is the time its message was posted minus the tick time.
  Printed: ticks posted, p50, p99 and max lateness (s), and how many
  ticks were posted twice (0: each tick is one message).

The notifier stage is on, as dispatchers need it: each tick's message
is also a pending push, which the same dispatcher's push part takes
(and, the queues having no subscribers, forgets) between schedule
passes. ``--no-pushes`` leaves it out, to see the schedule pass alone.
"""

import argparse
import collections
import statistics
import sys
import threading
import time

from zaqar.conf import notification

from benchmarks import common
from tests.fixtures import services
from zaqar_delay import dedup
from zaqar_delay import pending
from zaqar_delay.push import runner
from zaqar_delay.storage.redis import control as delay_control
from zaqar_delay.storage.redis import driver as delay_driver

CONF = """
[DEFAULT]
pooling = False
[drivers]
message_store = redis.delay
management_store = redis.delay
[drivers:message_store:redis]
uri = {url}?dbid={data}&socket_timeout=60
[drivers:management_store:redis]
uri = {url}?dbid={control}&socket_timeout=60
[storage]
message_pipeline = {pipeline}
[delay_push]
batch_size = 100
poll_interval = 0.5
dispatch_in_server = False
"""
PROJECT = common.PROJECT


class Timed:
    """The message controller, recording when each tick was posted."""

    def __init__(self, messages):
        self._messages = messages
        self.late = []
        self.identities = collections.Counter()

    def post(self, queue, messages, client_uuid, project=None, **kwargs):
        answers = self._messages.post(queue, messages, client_uuid, project,
                                      **kwargs)
        now = time.time()
        for message in messages:
            identity = message[dedup.IDENTITY]
            self.identities[queue, identity] += 1
            self.late.append(now - int(identity.rsplit(' ', 1)[1]))
        return answers


def _define(control, data, size, per_queue, look_at):
    queues = []
    for number in range(max(1, size // per_queue)):
        queue = 'sched.%d' % number
        schedules = [{'name': 's%d' % i, 'every': 50 + (number + i) % 20,
                      'body': {'n': i}, 'ttl': 600}
                     for i in range(min(per_queue, size))]
        control.queue_controller.create(queue, project=PROJECT)
        control.queue_controller.set_metadata(
            queue, {'_schedules': schedules}, project=PROJECT)
        data.schedule_store.touch(queue, PROJECT, look_at, look_at)
        queues.append(queue)
    return queues


def _idle_ms(ticker, repeats):
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        if ticker.run_once():
            raise AssertionError('a queue was due')
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _run(dispatcher, seconds):
    stop = threading.Event()
    thread = threading.Thread(target=dispatcher.run, args=(stop,),
                              daemon=True)
    thread.start()
    time.sleep(seconds)
    stop.set()
    thread.join()


def _one_size(url, dbs, size, args):
    conf_text = CONF.format(url=url, data=dbs[0], control=dbs[1],
                            pipeline='' if args.no_pushes else pending.STAGE)
    control, data = common.make_driver(
        delay_driver.DataDriver, delay_control.ControlDriver, conf_text)
    data.conf.register_opts(notification.ALL_OPTS,
                            group=notification.GROUP_NAME)
    data.connection.flushdb()
    control.connection.flushdb()
    queues = _define(control, data, size, args.per_queue,
                     int(time.time()) + 3600)
    dispatcher = runner.build(data, control.queue_controller, data.conf)
    idle = _idle_ms(dispatcher.ticker, args.repeats)
    timed = Timed(data.message_controller)
    dispatcher.ticker.messages = timed
    now = int(time.time())
    for queue in queues:
        data.schedule_store.touch(queue, PROJECT, now, now)
    _run(dispatcher, args.seconds)
    late = sorted(timed.late)
    twice = sum(1 for count in timed.identities.values() if count > 1)
    if not late:
        return idle, 0, None, None, None, twice
    return (idle, len(late), late[len(late) // 2],
            late[max(0, int(len(late) * 0.99) - 1)], late[-1], twice)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='10,1000,10000')
    parser.add_argument('--per-queue', type=int, default=10)
    parser.add_argument('--seconds', type=int, default=70)
    parser.add_argument('--repeats', type=int, default=21)
    parser.add_argument('--no-pushes', action='store_true',
                        help='without the notifier stage: the messages '
                        'posted are not pushed (the dispatcher\'s push '
                        'part then finds nothing)')
    args = parser.parse_args(argv)
    server = services.redis_server()
    print('redis-server %s on %s; one dispatcher; %d s per size; %d '
          'schedules per queue; pushes %s' % (
              server.client.info()['redis_version'], server.url,
              args.seconds, args.per_queue,
              'off' if args.no_pushes else 'on'))
    print('%7s %7s %9s %6s %7s %7s %7s %7s %6s' % (
        'N', 'queues', 'idle ms', 'x0', 'ticks', 'p50 s', 'p99 s', 'max s',
        'twice'))
    base = None
    for size in (int(s) for s in args.sizes.split(',')):
        idle, count, p50, p99, worst, twice = _one_size(
            server.url, (6, 7), size, args)
        base = base or idle
        print('%7d %7d %9.3f %6.2f %7d %7s %7s %7s %6d' % (
            size, max(1, size // args.per_queue), idle, idle / base, count,
            *('%.3f' % v if v is not None else '-'
              for v in (p50, p99, worst)), twice))
        sys.stdout.flush()


if __name__ == '__main__':
    main()
