"""Time each request of a mongodb.delay metrics read, and its plan.

    PYTHONPATH=. python benchmarks/metrics_mongodb_requests.py \
        [--queues 100,1000] [--sample 100]

Queues are added as ``metrics_scrape`` adds them (dotted names, one
delayed and two due messages each). At each count, each per-queue
request of the reader (``storage.mongodb.metrics.requests``) is
timed over ``--sample`` queues (median ms), with the server's
``explain`` (executionStats) of it on one queue: the stages of its
winning plan, the keys and documents it examined. ``distinct('p_q')``
(once a scrape) is timed too, and each count is also timed as the
``count`` command, the same filter without the aggregation pipeline
``count_documents`` sends. Wall times move with the machine's load;
next to each, the CPU the server process spent on it (from
``/proc/<pid>/stat``, in 10 ms ticks: summed over the sample, then
divided) moves much less. Last, a whole read of every queue
(``Metrics.read``, what a scrape does per queue), per queue.
"""

import argparse
import os
import statistics
import time
import uuid

from benchmarks import metrics_scrape
from tests.fixtures import services
from zaqar_delay.storage.mongodb import metrics as reader


def _find(tree, key):
    """The first value of ``key`` in a nested explain reply."""
    if isinstance(tree, dict):
        if key in tree:
            return tree[key]
        tree = list(tree.values())
    if isinstance(tree, list):
        for item in tree:
            found = _find(item, key)
            if found is not None:
                return found
    return None


def _stages(plan):
    if not isinstance(plan, dict):
        return []
    found = [plan['stage']] if 'stage' in plan else []
    for key in ('inputStage', 'queryPlan'):
        found += _stages(plan.get(key))
    for child in plan.get('inputStages') or ():
        found += _stages(child)
    return found


def _count_command(collection, filter):
    return {'count': collection.name, 'query': filter}


def _command(collection, request):
    """The command ``reader.run`` sends for ``request``."""
    if request.sort is None:
        return {'aggregate': collection.name, 'pipeline': [
            {'$match': request.filter},
            {'$group': {'_id': 1, 'n': {'$sum': 1}}}], 'cursor': {}}
    return {'find': collection.name, 'filter': request.filter,
            'sort': dict(request.sort), 'projection': request.projection,
            'limit': 1, 'singleBatch': True}


def explain(collection, command):
    """'stages keys=N docs=N' of the server's plan of ``command``."""
    reply = collection.database.command(
        {'explain': command, 'verbosity': 'executionStats'})
    stats = _find(reply, 'executionStats') or {}
    return '%s keys=%s docs=%s' % (
        '>'.join(_stages(_find(reply, 'winningPlan'))) or '?',
        stats.get('totalKeysExamined', '?'),
        stats.get('totalDocsExamined', '?'))


def _ms(call):
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def server_cpu_ms():
    """CPU ms the MongoDB server process has used (user + system)."""
    with open('/proc/%d/stat' % services.mongo_server().process.pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return ((int(fields[11]) + int(fields[12])) * 1000.0 /
            os.sysconf('SC_CLK_TCK'))


def timed(calls):
    """(median wall ms, server CPU ms a call) of ``calls``."""
    cpu = server_cpu_ms()
    wall = statistics.median(_ms(call) for call in calls)
    return wall, (server_cpu_ms() - cpu) / len(calls)


def measure(data, project, count, sample):
    now = int(time.time())
    names = ['bench.q-%04d' % n
             for n in range(0, count, max(count // sample, 1))]
    # (collection, scope) of each sampled queue: its partition's.
    queues = [(reader.collection_of(data, project, name),
               '%s/%s' % (project, name)) for name in names]
    documents = sum(db.messages.count_documents({})
                    for db in data.message_databases)
    cpu = server_cpu_ms()
    took = sum(_ms(lambda: db.messages.distinct('p_q'))
               for db in data.message_databases)
    print('queues=%d documents=%d partitions=%d distinct(p_q) %.1f ms, '
          'server %.0f ms' % (count, documents, len(data.message_databases),
                              took, server_cpu_ms() - cpu))
    collection, scope = queues[0]
    for at, request in enumerate(reader.requests(scope, now)):
        wall, cpu = timed([
            lambda c=c, q=q: reader.run(c, reader.requests(q, now)[at])
            for c, q in queues])
        print('  %-12s %6.2f ms  server %5.2f ms  %s' % (
            request.name, wall, cpu,
            explain(collection, _command(collection, request))))
        if request.sort is None:
            wall, cpu = timed([
                lambda c=c, q=q: c.database.command(_count_command(
                    c, reader.requests(q, now)[at].filter))
                for c, q in queues])
            print('  %-12s %6.2f ms  server %5.2f ms  %s' % (
                '  as count', wall, cpu, explain(
                    collection, _count_command(collection, request.filter))))
    named = [(project, 'bench.q-%04d' % n) for n in range(count)]
    cpu = server_cpu_ms()
    wall = _ms(lambda: reader.Metrics(data).read(named, now))
    print('  read of every queue: %.2f ms a queue, server %.2f ms a queue'
          % (wall / count, (server_cpu_ms() - cpu) / count))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--queues', default='100,1000')
    parser.add_argument('--sample', type=int, default=100)
    args = parser.parse_args(argv)
    control, data = metrics_scrape.mongodb_drivers()
    project = 'bench.' + uuid.uuid4().hex[:8]
    have = 0
    for count in (int(n) for n in args.queues.split(',')):
        metrics_scrape.add_queues(control, data, project, have, count)
        have = count
        measure(data, project, count, args.sample)


if __name__ == '__main__':
    main()
