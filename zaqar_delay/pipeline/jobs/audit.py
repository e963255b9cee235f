"""``zaqar-delay-audit``: what a delayed backlog will do.

  zaqar-delay-audit [snapshot.jsonl] [--history history.jsonl] \\
      --out report/ [--hours 24]

Reads a snapshot (``zaqar-delay-manage export``'s records) and/or the
kept events of ``export --history`` (JSON lines or Parquet), and writes
Parquet tables, text summaries (also printed) and PNG pictures under
``--out``. The tables and pictures: doc/source/pipeline.rst.
"""

import argparse
import io
import os
import sys

from zaqar_delay.pipeline import extra
from zaqar_delay.pipeline import formats
from zaqar_delay.pipeline import report
from zaqar_delay.pipeline import session as spark_session

# Without the pipeline extra (pyspark), --help still works and main()
# says what is missing.
MISSING_EXTRA = None
try:
    from pyspark.sql import functions as F

    from zaqar_delay.pipeline import pictures
    from zaqar_delay.pipeline import reading
    from zaqar_delay.pipeline import schemas
    from zaqar_delay.pipeline.transforms import audit as transform
    from zaqar_delay.pipeline.transforms import history as history_transform
except ImportError as exc:
    MISSING_EXTRA = extra.missing(exc)


def run(spark, snapshot, out_dir, hours=24.0, now=None):
    """Audit a snapshot DataFrame; returns the summary text.

    The per-queue table and the lateness histogram come out of one
    aggregation (``queue_stats``, kept in memory: a row per queue), and
    the never-deliverable and early-claim tables out of one filtered
    pass (kept in memory: the messages they name); the forecast is a
    pass of its own. Each pass reads the snapshot again (with Parquet,
    only the columns it needs); the small tables are read back for the
    summary and the pictures.
    """
    if now is None:
        now = snapshot.agg(F.max('snapshot_at')).first()[0]
    if now is None:
        raise ValueError('the snapshot is empty and --now is not given')
    prepared = transform.prepare(snapshot)

    def path(name):
        return os.path.join(out_dir, name)

    stats = transform.queue_stats(prepared, now).cache()
    stats.drop('lateness_bins').coalesce(1).write.mode('overwrite').parquet(
        path('queues'))
    transform.lateness_of(stats).coalesce(1).write.mode(
        'overwrite').parquet(path('lateness'))
    transform.forecast(prepared, now, hours).coalesce(1).write.mode(
        'overwrite').parquet(path('forecast'))
    named = transform.exceptions(prepared).cache()
    for name, table in (('never_deliverable', transform.never_deliverable),
                        ('early_claims', transform.early_claims)):
        table(named).write.mode('overwrite').parquet(path(name))
    stats.unpersist()
    named.unpersist()
    queue_rows = sorted(
        (r.asDict() for r in spark.read.parquet(path('queues')).collect()),
        key=lambda q: (q['project'] or '', q['queue']))
    forecast_rows = sorted(
        (tuple(r) for r in spark.read.parquet(path('forecast')).select(
            'project', 'queue', 'minute', 'due').collect()),
        key=lambda r: (r[2], r[0] or '', r[1]))
    text = io.StringIO()
    report.summary(queue_rows, now, hours,
                   sum(r[3] for r in forecast_rows), text)
    with open(path('summary.txt'), 'w') as f:
        f.write(text.getvalue())
    pictures.draw_due(pictures.due_series(forecast_rows, now, hours),
                      path('forecast.png'), hours)
    late_rows = [tuple(r) for r in spark.read.parquet(path('lateness'))
                 .select('project', 'queue', 'bin', 'claims').collect()]
    if late_rows:
        pictures.draw_lateness(pictures.lateness_series(late_rows),
                               path('lateness.png'))
    return text.getvalue()


def run_history(spark, history, out_dir):
    """Audit the true lateness of an exported history DataFrame; returns
    the summary text.

    The deliveries (a row per posted message) are worked out once and
    kept in memory; the per-queue table, the retries, the early
    deliveries and the two lateness-over-time tables are aggregations of
    them. The bucket of the time tables is the narrowest of
    ``pictures.WIDTHS`` that covers the deliveries in at most
    ``pictures.MOST_BUCKETS``.
    """
    def path(name):
        return os.path.join(out_dir, name)

    delivered = history_transform.deliveries(history).cache()
    history_transform.queue_lateness(delivered).coalesce(1).write.mode(
        'overwrite').parquet(path('history_queues'))
    for name, table in (('retries', history_transform.retries),
                        ('early_deliveries',
                         history_transform.early_deliveries)):
        table(delivered).coalesce(1).write.mode('overwrite').parquet(
            path(name))
    queue_rows = sorted(
        (r.asDict() for r in spark.read.parquet(path('history_queues'))
         .collect()), key=lambda q: (q['project'] or '', q['queue']))
    if not queue_rows:
        raise ValueError('the history has no posted message')
    text = io.StringIO()
    report.history_summary(queue_rows, text)
    with open(path('history_summary.txt'), 'w') as f:
        f.write(text.getvalue())
    times = [q[k] for q in queue_rows
             for k in ('first_delivery', 'last_delivery')
             if q[k] is not None]
    if times:
        width = pictures.timeline_width(min(times), max(times))
        for name, by_queue in (('lateness_over_time', True),
                               ('lateness_over_time_all', False)):
            history_transform.lateness_over_time(
                delivered, width, by_queue).coalesce(1).write.mode(
                'overwrite').parquet(path(name))
        every = spark.read.parquet(path('lateness_over_time_all')).select(
            'start', 'deliveries', 'lateness_p50', 'lateness_p90',
            'lateness_p99', 'lateness_max').collect()
        per_queue = spark.read.parquet(path('lateness_over_time')).select(
            'project', 'queue', 'start', 'deliveries',
            'lateness_p99').collect()
        pictures.draw_timeline(pictures.timeline_series(
            [tuple(r) for r in every], [tuple(r) for r in per_queue],
            width), path('lateness_over_time.png'))
    delivered.unpersist()
    return text.getvalue()


def parser():
    p = argparse.ArgumentParser(prog='zaqar-delay-audit',
                                description=__doc__.splitlines()[0])
    p.add_argument('snapshot', nargs='*', help='snapshot files or folders')
    p.add_argument('--history', action='append', default=[],
                   help='history export file or folder (repeat for more)')
    p.add_argument('--format', choices=('json', 'parquet'),
                   help='input format (default: from the extension)')
    p.add_argument('--out', required=True, help='report folder')
    p.add_argument('--hours', type=float, default=24.0,
                   help='forecast horizon in hours (default 24)')
    p.add_argument('--now', type=float,
                   help='the snapshot time, UNIX seconds (default: the '
                   'latest snapshot_at)')
    p.add_argument('--master', help='Spark master (default: local[*])')
    p.add_argument('--shuffle-partitions', type=int, default=16,
                   help='spark.sql.shuffle.partitions (default 16: the '
                   'aggregates are per queue and per minute, small)')
    return p


def _read(spark, paths, fmt, schema, columns):
    """The inputs with ``schema``'s types; text is parsed once: the
    ``columns`` read are kept in memory (partitions that do not fit are
    parsed again when needed)."""
    frame = reading.read(spark, paths, fmt, schema)
    if fmt == 'parquet':
        return frame.select(*[F.col(f.name).cast(f.dataType)
                              for f in schema.fields])
    return frame.select(*columns).cache()


def main(argv=None, out=sys.stdout):
    args = parser().parse_args(argv)
    if MISSING_EXTRA:
        return extra.refused('zaqar-delay-audit', MISSING_EXTRA)
    if not args.snapshot and not args.history:
        parser().error('give a snapshot, --history, or both')
    if args.hours <= 0:
        parser().error('--hours must be more than 0')
    try:
        kinds = [args.format or formats.guess_format(paths[0])
                 for paths in (args.snapshot, args.history) if paths]
    except ValueError as exc:
        parser().error(str(exc))
    os.makedirs(args.out, exist_ok=True)
    spark = spark_session.spark(args.master, 'zaqar-delay-audit',
                                shuffle_partitions=args.shuffle_partitions)
    try:
        if args.snapshot:
            snapshot = _read(spark, args.snapshot, kinds.pop(0),
                             schemas.SNAPSHOT,
                             transform.COLUMNS + ('snapshot_at',))
            out.write(run(spark, snapshot, args.out, args.hours, args.now))
        if args.history:
            if args.snapshot:
                out.write('\n')
            history = _read(spark, args.history, kinds.pop(0),
                            schemas.HISTORY, history_transform.COLUMNS)
            out.write(run_history(spark, history, args.out))
    except ValueError as exc:
        sys.stderr.write('zaqar-delay-audit: %s\n' % exc)
        return 2
    finally:
        spark.stop()
    return 0


if __name__ == '__main__':
    sys.exit(main())
