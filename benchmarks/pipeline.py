"""The PySpark jobs: audit wall time and memory, schedule throughput.

    python benchmarks/pipeline.py [--sizes 1000000,10000000]
        [--schedule 20000] [--master local[*]] [--wsgi-workers 4]
        [--in-flight 4] [--partitions N]

Audit: writes N synthetic snapshot records (Parquet; JSON lines, the
export's format, up to --json-max rows), then runs ``zaqar-delay-audit``
as an operator would, --repeats times, and reports its median and
slowest wall time, Spark start-up included, and the peak resident
memory of its driver (the Python process and its JVM, polled every
0.1 s).

Schedule: posts the same N rows into one local Zaqar (``redis.delay``)
twice: with ``zaqar-delay-schedule`` (--in-flight posts at once per
partition) and with a plain python-zaqarclient loop (one client, 20
messages a post), and compares messages per second; first against
Zaqar's WSGI app served by gunicorn with --wsgi-workers processes, as
operators deploy it, then against the single-process ``zaqar-server``.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from zaqarclient.queues import client

from benchmarks import procs
from tests.fixtures import zaqar_server
from zaqar_delay.pipeline import session as spark_session

NOW = 1795334400


def _command(name):
    return os.path.join(os.path.dirname(sys.executable), name)


def synthesize(spark, rows, path, fmt):
    """N snapshot records over 100 queues of 10 projects: 70% delayed
    (due over the next 48 hours), 20% claimed (a few early), 10% ready;
    1% can never be delivered."""
    from pyspark.sql import functions as F
    r = F.rand(7)
    df = (spark.range(rows).select(
        F.concat(F.lit('p'), (F.col('id') % 10).cast('string'))
        .alias('project'),
        F.concat(F.lit('q'), (F.col('id') % 100).cast('string'))
        .alias('queue'),
        F.expr('uuid()').alias('id'),
        (F.lit(NOW) - F.lit(600) * F.rand(1)).alias('created'),
        F.lit(None).cast('string').alias('claim_id'),
        r.alias('r')))
    df = (df.withColumn('delay', F.when(
        F.col('r') < 0.7, F.floor(F.rand(2) * 48 * 3600)).otherwise(
        F.floor(F.rand(3) * 600)).cast('double'))
        .withColumn('due', F.col('created') + F.col('delay'))
        .withColumn('ttl', F.when(F.col('r') < 0.01, F.lit(60))
                    .otherwise(F.lit(3 * 86400)).cast('long'))
        .withColumn('expires', F.col('created') + F.col('ttl'))
        .withColumn('claimed_at', F.when(
            (F.col('r') >= 0.7) & (F.col('r') < 0.9),
            F.col('due') + F.rand(4) * 30 - 1))
        .withColumn('claim_expires', F.col('claimed_at') + 60)
        .withColumn('claim_count', F.when(
            F.col('claimed_at').isNotNull(), 1).otherwise(0).cast('long'))
        .withColumn('snapshot_at', F.lit(float(NOW))))
    from zaqar_delay.pipeline import schemas
    df = df.select(*schemas.SNAPSHOT.fieldNames())
    writer = df.write.mode('overwrite')
    (writer.parquet if fmt == 'parquet' else writer.json)(path)


def run_measured(argv):
    """Run a command; (seconds, peak MB of its process tree, stdout,
    CPU seconds of its tree as last seen)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    peak, cpu = [0], [0.0]

    def poll():
        while proc.poll() is None:
            peak[0] = max(peak[0], procs.peak_rss(proc.pid))
            cpu[0] = max(cpu[0], procs.cpu_seconds(proc.pid))
            time.sleep(0.1)
    watcher = threading.Thread(target=poll)
    watcher.start()
    out, err = proc.communicate()
    elapsed = time.monotonic() - start
    watcher.join()
    if proc.returncode:
        raise RuntimeError('%s failed:\n%s' % (argv[0], err[-3000:]))
    return elapsed, peak[0] / 1024.0, out, cpu[0]


def bench_audit(sizes, json_max, master, work, repeats):
    inputs = [(n, fmt) for n in sizes for fmt in ('parquet', 'json')
              if fmt == 'parquet' or n <= json_max]
    spark = spark_session.spark('local[*]', 'zaqar-delay-bench-data')
    try:    # all inputs first, so that no other JVM runs during an audit
        for n, fmt in inputs:
            synthesize(spark, n, _input(work, n, fmt), fmt)
    finally:
        spark.stop()
    print('audit (zaqar-delay-audit, wall time including Spark start-up,'
          ' %d runs each)' % repeats)
    print('%10s %-8s %12s %12s %17s' % (
        'messages', 'input', 'median s', 'slowest s', 'peak MB (driver)'))
    for n, fmt in inputs:
        argv = [_command('zaqar-delay-audit'), _input(work, n, fmt),
                '--format', fmt, '--out', os.path.join(work, 'report'),
                '--hours', '24']
        if master:
            argv += ['--master', master]
        runs = [run_measured(argv)[:2] for _ in range(repeats)]
        times = sorted(seconds for seconds, _ in runs)
        print('%10d %-8s %12.1f %12.1f %17.0f' % (
            n, fmt, times[len(times) // 2], times[-1],
            max(mb for _, mb in runs)))
        sys.stdout.flush()
        shutil.rmtree(_input(work, n, fmt), ignore_errors=True)


def _input(work, n, fmt):
    return os.path.join(work, 'snapshot-%d.%s' % (
        n, 'parquet' if fmt == 'parquet' else 'jsonl'))


def bench_schedule(count, work, wsgi_workers, in_flight, partitions):
    served = ('gunicorn, %d workers' % wsgi_workers if wsgi_workers
              else 'zaqar-server, one process')
    stack = zaqar_server.ZaqarServer(max_delay=86400,
                                     wsgi_workers=wsgi_workers).start()
    try:
        cli = client.Client(stack.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': 'bench'}}})
        rows = [{'queue': 'spark', 'body': {'n': i}, 'ttl': 7200,
                 'delay': 3600} for i in range(count)]
        path = os.path.join(work, 'schedule.jsonl')
        with open(path, 'w') as f:
            for row in rows:
                f.write(json.dumps(row) + '\n')

        def server_cpu():
            return sum(procs.cpu_seconds(p.pid) for p in stack.processes)
        job_server = server_cpu()
        seconds, _, out, job_cpu = run_measured([
            _command('zaqar-delay-schedule'), path, '--url', stack.url,
            '--project', 'bench', '--in-flight', str(in_flight),
        ] + (['--partitions', str(partitions)] if partitions else []) + [
            '--rejects', os.path.join(work, 'rejects')])
        job_server = server_cpu() - job_server
        posting = float(out.split(' messages/s')[0].rsplit('(', 1)[1])
        queue = cli.queue('loop', force_create=True)
        loop_server, loop_client = server_cpu(), sum(os.times()[:2])
        start = time.monotonic()
        for i in range(0, count, 20):
            queue.post([dict(body=r['body'], ttl=r['ttl'], delay=r['delay'])
                        for r in rows[i:i + 20]])
        loop = count / (time.monotonic() - start)
        loop_server = server_cpu() - loop_server
        loop_client = sum(os.times()[:2]) - loop_client
        stats = (cli.queue('spark').stats['messages']['total'],
                 queue.stats['messages']['total'])
    finally:
        stack.cleanup()
    print('\nschedule %d messages into Zaqar (redis.delay) served by %s'
          % (count, served))
    print('%-36s %10s' % ('', 'messages/s'))
    print('%-36s %10.1f' % ('zaqar-delay-schedule, posting (%d in '
                            'flight)' % in_flight, posting))
    print('%-36s %10.1f' % ('zaqar-delay-schedule, whole command',
                            count / seconds))
    print('%-36s %10.1f' % ('python-zaqarclient loop', loop))
    print('ratio (posting / loop): %.2f; messages stored: %d and %d'
          % ((posting / loop,) + stats))
    print('CPU microseconds per message: job %.0f (server %.0f), loop '
          '%.0f (server %.0f)' % tuple(
              seconds_ / count * 1e6 for seconds_ in (
                  job_cpu, job_server, loop_client, loop_server)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='1000000,10000000')
    parser.add_argument('--json-max', type=int, default=1000000,
                        help='largest size also audited from JSON lines')
    parser.add_argument('--schedule', type=int, default=20000,
                        help='messages to schedule (0: skip)')
    parser.add_argument('--master', help='Spark master for the audit')
    parser.add_argument('--wsgi-workers', type=int, default=4,
                        help='gunicorn workers of the schedule\'s Zaqar')
    parser.add_argument('--in-flight', type=int, default=4,
                        help='zaqar-delay-schedule --in-flight')
    parser.add_argument('--partitions', type=int, default=0,
                        help='zaqar-delay-schedule --partitions (default: '
                        'the input\'s)')
    parser.add_argument('--repeats', type=int, default=3,
                        help='audit runs per input (default 3)')
    args = parser.parse_args(argv)
    work = tempfile.mkdtemp(prefix='zaqar-delay-bench-')
    try:
        bench_audit([int(s) for s in args.sizes.split(',') if s],
                    args.json_max, args.master, work, args.repeats)
        if args.schedule:
            for workers in (args.wsgi_workers, 0):
                bench_schedule(args.schedule, work, workers, args.in_flight,
                               args.partitions)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
