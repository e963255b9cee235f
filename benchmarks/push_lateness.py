"""Push and claim lateness against the true due time, per store.

    python benchmarks/push_lateness.py [--stores redis.delay,mongodb.delay]
        [--pending 0,1000000] [--messages 200] [--dispatchers 2]

For each store, a real zaqar-server with zaqar-delay's notifier stage
pushes to a webhook receiver (a process of its own): with the in-server
dispatcher, then with ``--dispatchers`` ``zaqar-delay-dispatcher``
processes (the server's own off), each alone and beside a subscriber
that refuses connections (a dead one). ``--messages`` messages are
posted one a request, a few ms apart at random, with a delay of 1 to
3 s; a client claims every 2 ms meanwhile. A message's true due time
is read back from the store (``zaqar_delay.storage.export``, the due
time the store keeps, to the ms); lateness is the receiver's arrival
time (push) or the time a claim returning it came back (claim) minus
that. ``missed`` bounds when a message became claimable: how long after
its due time the last claim that came back without it was sent (0 when
none was sent after it); the next claim returned it. With ``--pending``
N above 0 (redis.delay only), the store first holds N pending pushes of
messages due in a day.

Prints, per row, p50 / p99 / max lateness in ms, and how many arrived
before their due time (must be 0); p50 / p99 / max of ``missed``.
"""

import argparse
import random
import subprocess
import sys
import threading
import time
import uuid

from zaqarclient.queues import client

from benchmarks import common
from tests.fixtures import services
from tests.fixtures import zaqar_server
from zaqar_delay.dev import binaries
from zaqar_delay import push
from zaqar_delay.storage import export

PROJECT = 'bench'
DEAD = 'http://127.0.0.1:9/nobody-listens'
CLAIM_EVERY = 0.002
WARM = 8   # seconds the other dispatcher processes get to start


def _server(store, dispatch_in_server):
    options = {'storage': {'message_pipeline': push.STAGE},
               'delay_push': {'dispatch_in_server': dispatch_in_server,
                              'lease': 120}}
    extra = {}
    if store.startswith('mongodb'):
        extra['mongodb_url'] = services.mongo_server().url
    if store.startswith('swift'):
        extra['swift'] = services.keystone_swift().swift_store()
    return zaqar_server.ZaqarServer(message_store=store, options=options,
                                    **extra).start()


def _client(url):
    return client.Client(url, version=2, conf={'auth_opts': {
        'backend': 'noauth', 'options': {'os_project_id': PROJECT}}})


def _load(stack):
    """(name, control, data) drivers of the server's store in this
    process, without a dispatcher of their own: one here would compete
    with the dispatchers measured (dispatch_in_server is the server's)."""
    quiet = stack.conf + '.bench'
    with open(quiet, 'w') as f:
        f.write('[delay_push]\ndispatch_in_server = False\n')
    return export.load([stack.conf, quiet])


def _fill(stack, pending):
    """Hold ``pending`` pushes of messages due in a day."""
    if not pending:
        return
    _, control, data = _load(stack)
    control.queue_controller.create('backlog', project=PROJECT)
    common.post_delayed(data, 'backlog', pending)


def _claims(url, queue, stop, claimed, sent):
    """Claim every ``CLAIM_EVERY`` s: ``claimed`` gets each message's
    arrival, ``sent`` each claim's (send time, ids returned)."""
    cli = _client(url)
    claiming = cli.queue(queue)
    while not stop.is_set():
        at = time.time()
        ids = [message.id for message in claiming.claim(
            ttl=300, grace=60, limit=20)]
        arrived = time.time()
        for message_id in ids:
            claimed.setdefault(message_id, arrived)
        sent.append((at, ids))
        stop.wait(CLAIM_EVERY)


def _missed(due, sent):
    """Per message, how long after its due time (s) the last claim that
    came back without it was sent; 0 if none was sent after it."""
    first = {}
    for at, ids in sent:
        for message_id in ids:
            first.setdefault(message_id, at)
    return sorted(max([0.0] + [at - due[m] for at, _ in sent
                               if due[m] <= at < first[m]])
                  for m in due)


def _due_times(stack, queue):
    """{message id: due time} as the store keeps it."""
    name, _, data = _load(stack)
    return {rec['id']: rec['due'] if rec['due'] is not None
            else rec['created']
            for rec in export.messages(name, data, queue, PROJECT)}


def _row(stack, hook, count, dead):
    """(push lateness, claim lateness, missed) lists in seconds,
    sorted."""
    cli = _client(stack.url)
    name = 'lateness-' + uuid.uuid4().hex[:8]
    queue = cli.queue(name, force_create=True)
    queue.metadata(new_meta={'_default_message_delay': 60})
    cli.subscription(name, subscriber=hook.url, ttl=3600, options={})
    if dead:
        cli.subscription(name, subscriber=DEAD, ttl=3600, options={})
    del hook.arrivals[:]
    stop, claimed, sent = threading.Event(), {}, []
    claimer = threading.Thread(target=_claims,
                               args=(stack.url, name, stop, claimed, sent))
    claimer.start()
    rng = random.Random(7)
    try:
        for _ in range(count):
            time.sleep(rng.uniform(0.005, 0.04))
            queue.post([{'body': 1, 'ttl': 600,
                         'delay': rng.choice((1, 2, 3))}])
        due = _due_times(stack, name)
        hook.wait_for(count, 120)
        deadline = time.monotonic() + 30
        while len(claimed) < count and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        claimer.join()
    pushed = {}
    for at, message_id in hook.arrivals:
        pushed.setdefault(message_id, at)
    if len(pushed) != count or len(claimed) != count:
        raise AssertionError('%d pushed, %d claimed of %d' % (
            len(pushed), len(claimed), count))
    return (sorted(pushed[m] - due[m] for m in due),
            sorted(claimed[m] - due[m] for m in due), _missed(due, sent))


def _dispatchers(stack, hook, count):
    """``count`` zaqar-delay-dispatcher processes, up: one has pushed a
    message of its own, and all had ``WARM`` seconds more to start."""
    command = binaries.installed('zaqar-delay-dispatcher')
    procs = [subprocess.Popen([command, '--config-file', stack.conf],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
             for _ in range(count)]
    cli = _client(stack.url)
    name = 'warm-' + uuid.uuid4().hex[:8]
    warm = cli.queue(name, force_create=True)
    warm.metadata(new_meta={'_default_message_delay': 60})
    cli.subscription(name, subscriber=hook.url, ttl=3600, options={})
    del hook.arrivals[:]
    deadline = time.monotonic() + 120
    while not hook.arrivals and time.monotonic() < deadline:
        warm.post([{'body': 0, 'ttl': 60, 'delay': 0}])
        hook.wait_for(1, 2)
    time.sleep(WARM)
    warm.delete()
    return procs


def _ms(late, early=True):
    """p50, p99, max (ms) and, with ``early``, how many were early."""
    shown = '%7.1f %7.1f %7.1f' % (
        late[len(late) // 2] * 1000, late[int(len(late) * 0.99) - 1] * 1000,
        late[-1] * 1000)
    return shown + (' %5d' % sum(1 for x in late if x < 0) if early else '')


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--stores', default='redis.delay,mongodb.delay')
    parser.add_argument('--pending', default='0,1000000',
                        help='pending pushes held first (redis.delay)')
    parser.add_argument('--messages', type=int, default=200)
    parser.add_argument('--dispatchers', type=int, default=2)
    args = parser.parse_args(argv)
    hook = common.Hook()
    print('lateness in ms against the due time the store keeps: p50 p99 '
          'max, and how many came before it (early)')
    print('%-14s %9s %-14s %-5s | %-7s %-7s %-7s %5s | %-7s %-7s %-7s %5s'
          ' | %-7s %-7s %-7s' % (
              'store', 'pending', 'dispatcher', 'dead', 'push50', 'push99',
              'max', 'early', 'claim50', 'claim99', 'max', 'early',
              'missed50', 'missed99', 'max'))
    try:
        for store in args.stores.split(','):
            sizes = [int(n) for n in args.pending.split(',')]
            if store != 'redis.delay':
                sizes = sizes[:1]
            for pending in sizes:
                for in_server in (True, False):
                    stack = _server(store, in_server)
                    procs = [] if in_server else _dispatchers(
                        stack, hook, args.dispatchers)
                    try:
                        _fill(stack, pending)
                        for dead in (False, True):
                            push_late, claim_late, missed = _row(
                                stack, hook, args.messages, dead)
                            print('%-14s %9d %-14s %-5s | %s | %s | %s' % (
                                store, pending, 'in-server' if in_server
                                else '%d processes' % args.dispatchers,
                                'dead' if dead else '-', _ms(push_late),
                                _ms(claim_late), _ms(missed, early=False)))
                            sys.stdout.flush()
                    finally:
                        for proc in procs:
                            proc.terminate()
                            proc.wait()
                        stack.cleanup()
    finally:
        hook.stop()


if __name__ == '__main__':
    main()
