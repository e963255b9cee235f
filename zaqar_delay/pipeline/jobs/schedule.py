"""``zaqar-delay-schedule``: post a dataset of future deliveries.

  zaqar-delay-schedule --url http://zaqar:8888 --project P \\
      --rejects rejects/ deliveries.parquet

Posts each row (``queue``, ``body``; optional ``ttl``, ``project``,
``delay`` or ``deliver_at``) as a message; writes each rejected row,
with its reason, under ``--rejects``. Exit status: 0 every row posted
(or a duplicate), 1 some rejected, 2 a bad command line or input columns
(nothing posted). Columns, queues, reruns: doc/source/pipeline.rst.
"""

import argparse
import collections
import datetime
import os
import sys
import threading
import time
import uuid

from zaqar_delay.pipeline import extra
from zaqar_delay.pipeline import formats
from zaqar_delay.pipeline import session as spark_session
from zaqar_delay.pipeline import poster as zaqar_poster

# Without the pipeline extra (pyspark), --help still works and main()
# says what is missing.
MISSING_EXTRA = None
try:
    from pyspark import errors as spark_errors

    from zaqar_delay.pipeline import reading
    from zaqar_delay.pipeline import schemas
    from zaqar_delay.pipeline.transforms import schedule as transform
except ImportError as exc:
    MISSING_EXTRA = extra.missing(exc)

Summary = collections.namedtuple(
    'Summary', 'posted rejected per_queue seconds rate duplicates')


def _progress(counts, done, out, interval):
    while not done.wait(interval):
        values = [counts[k].value
                  for k in ('posted', 'duplicate', 'refused')]
        out.write('progress: %d posted, %d duplicates, %d refused so '
                  'far\n' % tuple(values))
        out.flush()


def run_folder(rejects, now=None):
    """This run's folder of rejects under ``rejects``:
    ``run=<UTC time>-<6 hex digits>`` (names sort by time)."""
    now = datetime.datetime.now(datetime.timezone.utc) if now is None \
        else now
    return '%s/run=%s-%s' % (rejects.rstrip('/'),
                             now.strftime('%Y%m%dT%H%M%SZ'),
                             uuid.uuid4().hex[:6])


def validate(df, rejects_path, default_project=None):
    """``df``'s rows, validated (``transform.validate``); the invalid
    ones are written to ``rejects_path``, a folder that must not exist.
    This pass reads every row (Spark checks every CSV file's header), so
    an unreadable input stops the job here, before anything is posted.
    """
    validated = transform.validate(transform.as_text(df, default_project))
    transform.rejects(validated).write.mode('errorifexists').json(
        rejects_path)
    return validated


def post(spark, validated, poster, rejects_path, partitions=None,
         out=sys.stdout, progress_interval=10.0):
    """Post the valid rows of ``validate``; add the rows the poster
    refuses to ``rejects_path``; returns a Summary."""
    valid = transform.to_post(validated)
    if partitions:
        valid = valid.repartition(partitions, 'project', 'queue')
    valid = valid.sortWithinPartitions('project', 'queue')
    sc = spark.sparkContext
    counts = {status: sc.accumulator(0)
              for status in ('posted', 'duplicate', 'refused')}

    def post(rows):
        for result in poster(rows):
            counts[result['status']].add(result['count'])
            yield result

    done = threading.Event()
    threading.Thread(target=_progress, daemon=True, args=(
        counts, done, out, progress_interval)).start()
    start = time.monotonic()
    try:
        results = valid.rdd.mapPartitions(post).collect()   # posts once
    finally:
        done.set()
    seconds = time.monotonic() - start

    refused = [r for r in results if r['status'] == 'refused']
    if refused:
        spark.createDataFrame(refused, schemas.POST_RESULT).select(
            *schemas.REJECT.fieldNames()).write.mode('append').json(
            rejects_path)
    rejected = spark.read.schema(schemas.REJECT).json(rejects_path).count()

    per_queue = collections.Counter()
    for r in results:
        if r['status'] == 'posted':
            per_queue[(r['project'], r['queue'])] += r['count']
    total = sum(per_queue.values())
    duplicates = sum(r['count'] for r in results
                     if r['status'] == 'duplicate')
    return Summary(total, rejected, dict(per_queue), seconds,
                   total / seconds if seconds else 0.0, duplicates)


def report(summary, rejects_path, out):
    out.write('posted %d messages in %.1f s (%.1f messages/s); rejected '
              '%d (see %s)\n' % (summary.posted, summary.seconds,
                                 summary.rate, summary.rejected,
                                 rejects_path))
    if summary.duplicates:
        out.write('duplicates: %d (their queue already had a live message '
                  'with the same _dedup_key value: not posted again)\n'
                  % summary.duplicates)
    for (project, queue), count in sorted(summary.per_queue.items(),
                                          key=lambda kv: str(kv[0])):
        out.write('  %s/%s: %d\n' % (project or '-', queue, count))


def parser():
    p = argparse.ArgumentParser(
        prog='zaqar-delay-schedule', description=__doc__.splitlines()[0],
        epilog='Exit status: 0, every row posted (or a duplicate); 1, some '
        'rows rejected (see the summary\'s folder); 2, a bad command line '
        'or input columns (nothing posted).')
    p.add_argument('inputs', nargs='+', help='input files or folders')
    p.add_argument('--format', choices=formats.FORMATS,
                   help='input format (default: from the extension)')
    p.add_argument('--url', default=os.environ.get('ZAQAR_URL'),
                   required='ZAQAR_URL' not in os.environ,
                   help='Zaqar endpoint (default: $ZAQAR_URL)')
    p.add_argument('--project', help='project of rows that name none')
    p.add_argument('--token', default=os.environ.get('OS_AUTH_TOKEN'),
                   help='Keystone token (default: $OS_AUTH_TOKEN)')
    p.add_argument('--rejects', default='rejects',
                   help='folder of rejected rows: each run writes its own '
                   'run=<UTC time>-<id> folder there, named in the '
                   'summary (default: rejects)')
    p.add_argument('--queue-delay', type=int, default=1, metavar='SECONDS',
                   help='_default_message_delay of each queue the job '
                   'creates (default 1; rows without a delay of their own '
                   'get it); an existing queue is never changed')
    p.add_argument('--master', help='Spark master (default: local[*])')
    p.add_argument('--partitions', type=int,
                   help='posting partitions (default: the input\'s)')
    p.add_argument('--batch-size', type=int, default=20,
                   help='messages per post (default 20)')
    p.add_argument('--max-post-bytes', type=int, default=262144,
                   help='the server\'s max_messages_post_size')
    p.add_argument('--in-flight', type=int, default=4,
                   help='posts of a partition sent at once (default 4; '
                   '1 keeps each partition\'s input order)')
    p.add_argument('--retries', type=int, default=5,
                   help='retries of a transient failure (default 5)')
    p.add_argument('--progress-interval', type=float, default=10.0,
                   help='seconds between progress lines')
    return p


def _remove(spark, path):
    """Remove the folder ``path``, on the file system its URL names."""
    jvm, context = spark.sparkContext._jvm, spark.sparkContext._jsc
    folder = jvm.org.apache.hadoop.fs.Path(path)
    folder.getFileSystem(context.hadoopConfiguration()).delete(folder, True)


def schedule(spark, args, out=sys.stdout, err=sys.stderr):
    """Run the job of parsed ``args`` on ``spark``; the exit status."""
    try:
        df = reading.read(spark, args.inputs, args.format,
                          schemas.SCHEDULE_TEXT, all_columns=True)
        transform.check_columns(df.columns)
    except (ValueError, spark_errors.AnalysisException) as exc:
        err.write('zaqar-delay-schedule: %s\n' % str(exc).splitlines()[0])
        return 2
    poster = zaqar_poster.Poster(
        args.url, token=args.token, batch_size=args.batch_size,
        max_post_bytes=args.max_post_bytes, retries=args.retries,
        in_flight=args.in_flight, queue_delay=args.queue_delay)
    rejects = run_folder(args.rejects)
    try:
        validated = validate(df, rejects, args.project)
    except Exception as exc:
        refused = reading.input_error(exc)
        if refused is None:
            raise
        _remove(spark, rejects)     # what the aborted write left
        err.write('zaqar-delay-schedule: %s (nothing posted)\n' % refused)
        return 2
    summary = post(spark, validated, poster, rejects, args.partitions, out,
                   args.progress_interval)
    report(summary, rejects, out)
    return 1 if summary.rejected else 0


def main(argv=None, out=sys.stdout, err=sys.stderr):
    args = parser().parse_args(argv)
    if MISSING_EXTRA:
        return extra.refused('zaqar-delay-schedule', MISSING_EXTRA)
    if args.batch_size < 1 or args.max_post_bytes < 64 or \
            args.in_flight < 1 or args.queue_delay < 1:
        parser().error('--batch-size, --in-flight and --queue-delay must '
                       'be at least 1 and --max-post-bytes at least 64')
    try:
        args.format = args.format or formats.guess_format(args.inputs[0])
    except ValueError as exc:
        parser().error(str(exc))
    spark = spark_session.spark(args.master, 'zaqar-delay-schedule')
    try:
        return schedule(spark, args, out, err)
    finally:
        spark.stop()


if __name__ == '__main__':
    sys.exit(main())
