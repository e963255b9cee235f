"""Push dispatch on ``redis.delay``: pass time and lateness at any backlog.

    python benchmarks/push_redis.py [--sizes 0,10000,100000,1000000]
        [--burst 1000] [--dispatchers 1,4] [--requests] [--dead]

Starts its own redis-server. For each N, the store holds N pending
pushes of messages due in a day; then:

- pass time: the median time of one dispatcher pass that finds nothing
  due (the idle cost), and of one that takes and pushes 100 due pushes
  (``[delay_push] batch_size``), with N pending;
- lateness: ``--burst`` messages come due in the same second and
  ``zaqar-delay-dispatcher`` processes (1, then 4) push them to a webhook
  receiver on loopback (a process of its own); lateness is the arrival
  time minus the due time; with ``--dead``, the queue also has a
subscriber that refuses connections, and the most threads a dispatcher
process had during the burst is printed beside.

x0 is a time over the same one with no backlog: flat means ~1. The last
lines are the floor: how long the dispatcher's webhook POST takes to
push the burst to the same receiver from 1 and 4 processes, one push
after the other, with no store and no dispatcher, with ``requests`` (as
in Zaqar's notifier) and with the lighter client
(``zaqar_delay.push.webhook_http``); and how
many connections the kernel refused for a full listen queue meanwhile
(Linux' ListenOverflows; each costs its client a second). ``--requests``
runs the dispatchers with ``[delay_push] light_http_client = False``.
"""

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from zaqar.conf import notification

from benchmarks import common
from tests.fixtures import services
from zaqar_delay.push import runner
from zaqar_delay.push import payloads
from zaqar_delay.push import webhook_http
from zaqar_delay.storage.redis import control as delay_control
from zaqar_delay.storage.redis import driver as delay_driver

CONF = """
[DEFAULT]
pooling = False
[drivers]
message_store = redis.delay
management_store = redis.delay
[drivers:message_store:redis]
uri = {url}?dbid=4&socket_timeout=60
[drivers:management_store:redis]
uri = {url}?dbid=5&socket_timeout=60
[transport]
max_message_delay = 604800
[storage]
message_pipeline = zaqar_delay.notification.notifier
[delay_push]
batch_size = 100
poll_interval = 0.5
dispatch_in_server = False
light_http_client = {light}
"""
PROJECT = common.PROJECT


def _fill(data, queue, count):
    while count > 0:
        n = min(1000, count)
        data.message_controller.post(
            queue, [{'ttl': 172800, 'body': i, 'delay': 86400}
                    for i in range(n)], common.CLIENT, PROJECT)
        count -= n


def _post_due(data, queue, count, due_in):
    """Post ``count`` messages due together ``due_in`` seconds from the
    start of the next second; return that due time."""
    time.sleep(1 - time.time() % 1)
    due = int(time.time()) + due_in
    for start in range(0, count, 500):
        data.message_controller.post(
            queue, [{'ttl': 600, 'body': start + i,
                     'delay': due - int(time.time())}
                    for i in range(min(500, count - start))],
            common.CLIENT, PROJECT)
    return due


def _pass_ms(dispatcher, data, queue, due_count, repeats):
    times = []
    for _ in range(repeats):
        if due_count:
            due = _post_due(data, queue, due_count, 1)
            time.sleep(max(0, due - time.time()))
        started = time.perf_counter()
        taken = dispatcher.run_once()
        times.append((time.perf_counter() - started) * 1000)
        if taken != due_count:
            raise AssertionError('took %d, wanted %d' % (taken, due_count))
    return statistics.median(times)


def _lateness(conf_path, data, queue, hook, burst, count):
    """p50 and p99 lateness of ``burst`` pushes due in one second, with
    ``count`` zaqar-delay-dispatcher processes."""
    del hook.arrivals[:]
    command = os.path.join(os.path.dirname(sys.executable),
                           'zaqar-delay-dispatcher')
    procs = [subprocess.Popen([command, '--config-file', conf_path],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
             for _ in range(count)]
    threads = []
    sampling = threading.Event()

    def sample():
        while not sampling.wait(0.1):
            threads.append(max(_threads(proc.pid) for proc in procs))

    sampler = threading.Thread(target=sample, daemon=True)
    try:
        sampler.start()
        due = _post_due(data, queue, burst, 3)
        hook.wait_for(burst, 60)
        time.sleep(1)   # the dead subscriber's retries go on meanwhile
    finally:
        sampling.set()
        sampler.join()
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait()
    late = sorted(at - due for at, _ in hook.arrivals)
    if len(late) != burst:
        raise AssertionError('%d pushes arrived, wanted %d'
                             % (len(late), burst))
    return (late[len(late) // 2], late[int(len(late) * 0.99) - 1],
            max(threads, default=0))


def _threads(pid):
    """Threads of process ``pid`` now (0 once it is gone)."""
    try:
        with open('/proc/%d/status' % pid) as status:
            for line in status:
                if line.startswith('Threads:'):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _webhook(url, count, light):
    sub = {'subscriber': url, 'options': {}}
    for i in range(count):
        data, headers = payloads.webhook_request(
            sub, 'burst', {'id': str(i), 'body': i, 'ttl': 60})
        webhook_http.post(url, data=data, headers=headers, timeout=(5, 30),
                          light=light)


def _floor(url, burst, processes, light):
    """Seconds for the dispatcher's webhook POST, one push after the
    other, to push ``burst`` messages from ``processes`` processes."""
    started = time.perf_counter()
    with multiprocessing.Pool(processes) as pool:
        pool.starmap(_webhook,
                     [(url, burst // processes, light)] * processes)
    return time.perf_counter() - started


def _listen_overflows():
    """Linux' count of connections refused for a full listen queue."""
    try:
        with open('/proc/net/netstat') as stats:
            lines = [line.split() for line in stats
                     if line.startswith('TcpExt:')]
        return int(dict(zip(lines[0], lines[1]))['ListenOverflows'])
    except (OSError, IndexError, KeyError, ValueError):
        return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='0,10000,100000,1000000')
    parser.add_argument('--burst', type=int, default=1000)
    parser.add_argument('--dispatchers', default='1,4')
    parser.add_argument('--repeats', type=int, default=7)
    parser.add_argument('--requests', action='store_true',
                        help='dispatchers push through requests')
    parser.add_argument('--dead', action='store_true',
                        help='the burst queue also has a subscriber that '
                        'refuses connections (Zaqar\'s default retry '
                        'policy)')
    args = parser.parse_args(argv)
    overflows = _listen_overflows()
    server = services.redis_server()
    print('redis-server %s on %s' % (
        server.client.info()['redis_version'], server.url))
    conf_text = CONF.format(url=server.url, light=not args.requests)
    control, data = common.make_driver(
        delay_driver.DataDriver, delay_control.ControlDriver, conf_text)
    conf = data.conf
    conf.register_opts(notification.ALL_OPTS, group=notification.GROUP_NAME)
    with tempfile.NamedTemporaryFile('w', suffix='.conf',
                                     delete=False) as conf_file:
        conf_file.write(conf_text)
    for queue in ('backlog', 'due', 'burst'):
        control.queue_controller.create(queue, project=PROJECT)
        control.queue_controller.set_metadata(
            queue, {'_default_message_delay': 60}, project=PROJECT)
    hook = common.Hook()
    data.subscription_controller.create('burst', hook.url, 3600, {},
                                        project=PROJECT)
    if args.dead:
        data.subscription_controller.create(
            'burst', 'http://127.0.0.1:9/nobody-listens', 3600, {},
            project=PROJECT)
    counts = [int(n) for n in args.dispatchers.split(',')]
    dispatcher = runner.build(data, control.queue_controller, conf)

    print('\nN pending: one pass, median ms (idle: nothing due; 100 due: '
          'take, read, hand to the subscriber tasks); lateness of %d '
          'pushes due in one second, s; dispatchers push through %s'
          % (args.burst, 'requests' if args.requests else 'webhook_http'))
    if args.dead:
        print('a dead subscriber beside the receiver; thr: the most '
              'threads a dispatcher process had during the burst')
    print('%9s %9s %6s %9s %6s' % ('N', 'idle ms', 'x0', '100 ms', 'x0')
          + ''.join(' %6s %6s %4s' % ('p50/%d' % n, 'p99/%d' % n, 'thr')
                    for n in counts))
    base, have = None, 0
    for size in (int(s) for s in args.sizes.split(',')):
        _fill(data, 'backlog', size - have)
        have = size
        idle = _pass_ms(dispatcher, data, 'due', 0, args.repeats)
        busy = _pass_ms(dispatcher, data, 'due', 100, args.repeats)
        base = base or (idle, busy)
        late = [_lateness(conf_file.name, data, 'burst', hook, args.burst,
                          n) for n in counts]
        print('%9d %9.2f %6.2f %9.2f %6.2f' % (
            size, idle, idle / base[0], busy, busy / base[1]) +
            ''.join(' %6.3f %6.3f %4d' % trio for trio in late))
        sys.stdout.flush()
    for light, client in ((False, 'requests'), (True, 'webhook_http')):
        print('%9s %-13s%s' % ('floor', client, ''.join(
            '  %s: %.3f s' % ('%d process%s' % (n, 'es' if n > 1 else ''),
                              _floor(hook.url, args.burst, n, light))
            for n in counts)))
    hook.stop()
    if overflows is not None:
        print('listen queue overflows during the run: %d'
              % (_listen_overflows() - overflows))


if __name__ == '__main__':
    main()
