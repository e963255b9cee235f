"""Message history on ``redis.delay``: what it costs, off and on.

    python -m benchmarks.history_redis [--rounds 5] [--seconds 2]
        [--baseline main]

Starts its own redis-server. In each round, one worker process per
driver runs on it in turn: upstream's ``redis``; ``redis.delay`` as of
``--baseline`` (a git revision, extracted to a temporary tree: today's
code path); ``redis.delay`` with history off (no ``_history_ttl``) and
on (``_history_ttl`` a day). Each worker posts 10 messages a call for
``--seconds``, then claims 10 and deletes each with its claim until all
are gone. Prints the median rate of each over the rounds, the ratios
off / baseline (target >= 0.98), on / baseline (target >= 0.8), on /
off and to upstream; the redis-server's work per message (commands served and
microseconds spent in them, from INFO commandstats: a measure the load
of a shared machine disturbs far less than throughput) and its ratios;
and the history kept per processed message: MEMORY USAGE of the
queue's history stream, and the growth of INFO used_memory over the
worker's run, each divided by the messages processed.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

from benchmarks import common

MODES = ('redis', 'baseline', 'off', 'on')
HISTORY_TTL = 86400
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def server_work(client):
    """(commands served, microseconds spent in them) so far, from INFO
    commandstats: what a phase cost the redis-server, whatever else
    runs on the machine."""
    stats = client.info('commandstats').values()
    return (sum(s['calls'] for s in stats),
            sum(s['usec'] for s in stats))


def worker(mode, url, dbid, seconds):
    """Run one measurement in this process; return its results."""
    from zaqar.storage.redis import driver as upstream

    from benchmarks import redis_delay
    from zaqar_delay.storage.redis import control as delay_control
    from zaqar_delay.storage.redis import driver as delay_driver

    data_class = (upstream.DataDriver if mode == 'redis'
                  else delay_driver.DataDriver)
    control, data = common.make_driver(
        data_class, delay_control.ControlDriver,
        redis_delay.CONF.format(url=url, dbid=dbid, stages=''))
    queue = 'bench.%s.%s' % (mode, uuid.uuid4().hex[:6])
    control.queue_controller.create(queue, project=common.PROJECT)
    if mode == 'on':
        control.queue_controller.set_metadata(
            queue, {'_history_ttl': HISTORY_TTL}, project=common.PROJECT)
    client = data.connection
    memory_before = client.info('memory')['used_memory']
    messages = data.message_controller
    work = [server_work(client)]
    posted, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        messages.post(queue, [{'ttl': 3600, 'body': {'n': posted + i}}
                              for i in range(10)],
                      common.CLIENT, common.PROJECT)
        posted += 10
    post_rate = posted / (time.perf_counter() - started)
    work.append(server_work(client))

    done, started = 0, time.perf_counter()
    while done < posted:
        claim_id, claimed = data.claim_controller.create(
            queue, {'ttl': 60, 'grace': 60}, common.PROJECT, limit=10)
        claimed = list(claimed)
        if not claimed:
            raise AssertionError('claimed nothing, %d left' % (
                posted - done))
        for msg in claimed:
            messages.delete(queue, msg['id'], common.PROJECT,
                            claim=claim_id)
        done += len(claimed)
    cycle_rate = done / (time.perf_counter() - started)
    work.append(server_work(client))
    (calls0, usec0), (calls1, usec1), (calls2, usec2) = work

    stream = kept = 0
    if mode == 'on':
        from zaqar_delay.storage.redis import keys
        key = keys.history(queue, common.PROJECT)
        stream = client.memory_usage(key, samples=0) or 0
        kept = client.xlen(key)
    grown = client.info('memory')['used_memory'] - memory_before
    return {'mode': mode, 'post': post_rate, 'claim_delete': cycle_rate,
            'post_calls': (calls1 - calls0) / posted,
            'post_usec': (usec1 - usec0) / posted,
            'claim_delete_calls': (calls2 - calls1) / done,
            'claim_delete_usec': (usec2 - usec1) / done,
            'processed': done, 'stream_bytes': stream, 'events': kept,
            'memory_growth': grown, 'code': delay_driver.__file__}


def baseline_tree(revision):
    """The repository at ``revision``, extracted to a temporary folder."""
    folder = tempfile.mkdtemp(prefix='zaqar-delay-baseline-')
    archive = subprocess.run(['git', '-C', ROOT, 'archive', revision],
                             check=True, stdout=subprocess.PIPE).stdout
    subprocess.run(['tar', '-x', '-C', folder], input=archive, check=True)
    return folder


def run_worker(mode, url, dbid, seconds, baseline):
    env = dict(os.environ)
    # The baseline's zaqar_delay (and benchmarks, tests) come first.
    path = baseline if mode == 'baseline' else ROOT
    env['PYTHONPATH'] = os.pathsep.join(
        [path] + [p for p in [env.get('PYTHONPATH')] if p])
    reply = subprocess.run(
        [sys.executable, os.path.abspath(__file__), '--worker', mode,
         '--url', url, '--dbid', str(dbid), '--seconds', str(seconds)],
        check=True, stdout=subprocess.PIPE, env=env, cwd=path)
    return json.loads(reply.stdout.decode().strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--seconds', type=float, default=2.0)
    parser.add_argument('--baseline', default='main',
                        help='git revision of today\'s code path')
    parser.add_argument('--worker', choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument('--url', help=argparse.SUPPRESS)
    parser.add_argument('--dbid', type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args.url, args.dbid,
                                args.seconds)))
        return

    from tests.fixtures import services
    server = services.redis_server()
    print('redis-server %s on %s; baseline %s' % (
        server.client.info()['redis_version'], server.url, args.baseline))
    baseline = baseline_tree(args.baseline)
    results = {mode: [] for mode in MODES}
    for round_ in range(args.rounds):
        # Rotate the order so that no mode always runs first.
        order = MODES[round_ % 4:] + MODES[:round_ % 4]
        for mode in order:
            results[mode].append(run_worker(
                mode, server.url, MODES.index(mode) + 1, args.seconds,
                baseline))
        if not round_:
            for mode in MODES[1:]:
                print('%s: %s' % (mode, results[mode][0]['code']))
        sys.stdout.write('round %d done\n' % (round_ + 1))
        sys.stdout.flush()

    def median(mode, field):
        return statistics.median(r[field] for r in results[mode])

    print('\nmessages/s, median of %d rounds' % args.rounds)
    print('%-14s %10s %10s %10s %10s' % ('', *MODES))
    for field in ('post', 'claim_delete'):
        print('%-14s %10.0f %10.0f %10.0f %10.0f' % (
            field, *(median(mode, field) for mode in MODES)))
    # Ratios within each round (the same machine load), then their
    # median: the load of a shared machine drifts between rounds.
    pairs = (('off', 'baseline'), ('on', 'baseline'), ('on', 'off'),
             ('off', 'redis'), ('on', 'redis'))

    def ratio(top, bottom, field):
        return statistics.median(
            a[field] / b[field] for a, b in zip(results[top],
                                                results[bottom]))

    print('\nratios, median of the rounds\' ratios')
    print('%-14s %12s %11s %9s %10s %9s' % (
        '', *('%s/%s' % p for p in pairs)))
    for field in ('post', 'claim_delete'):
        print('%-14s %12.3f %11.3f %9.3f %10.3f %9.3f' % (
            field, *(ratio(top, bottom, field) for top, bottom in pairs)))
    print()
    print('redis-server work per message, median: commands (us)')
    print('%-14s %14s %14s %14s %14s' % ('', *MODES))
    for field in ('post', 'claim_delete'):
        print('%-14s %s' % (field, ' '.join(
            '%7.2f (%4.0f)' % (median(mode, field + '_calls'),
                               median(mode, field + '_usec'))
            for mode in MODES)))
    print('%-14s %12s %11s %9s %10s %9s' % ('server us', *(
        '%s/%s' % p for p in pairs)))
    for field in ('post_usec', 'claim_delete_usec'):
        print('%-14s %12.3f %11.3f %9.3f %10.3f %9.3f' % (
            field[:-5], *(ratio(top, bottom, field)
                          for top, bottom in pairs)))
    for top, bottom in pairs[:3]:
        print('%s/%s per round: post %s; claim_delete %s' % (
            top, bottom, *(' '.join(
                '%.2f' % (a[field] / b[field])
                for a, b in zip(results[top], results[bottom]))
                for field in ('post', 'claim_delete'))))
        print('  server us: post %s; claim_delete %s' % tuple(' '.join(
            '%.2f' % (a[field] / b[field])
            for a, b in zip(results[top], results[bottom]))
            for field in ('post_usec', 'claim_delete_usec')))
    print('\nhistory kept per processed message (history on)')
    on = results['on']
    print('  stream MEMORY USAGE: %.0f bytes (%.1f events a message)' % (
        statistics.median(r['stream_bytes'] / r['processed'] for r in on),
        statistics.median(r['events'] / r['processed'] for r in on)))
    for mode in ('off', 'on'):
        print('  used_memory growth, history %s: %.0f bytes' % (
            mode, statistics.median(r['memory_growth'] / r['processed']
                                    for r in results[mode])))


if __name__ == '__main__':
    main()
