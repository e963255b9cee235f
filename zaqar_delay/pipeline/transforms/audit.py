"""DataFrame transforms of the ``audit`` job (pure: no I/O).

Every transform takes a snapshot (:data:`schemas.SNAPSHOT`) and the
time it describes, ``now`` (UNIX seconds). A message's due time is
``due``, or ``created`` for a message stored without one (it counts as
due). It is *never deliverable* when its ttl ends before it is due, an
*early claim* when it was claimed before it was due, and its
*lateness* is how long after its due time it was claimed.
"""

import functools
import operator

from pyspark.sql import functions as F

PERCENTILES = (0.5, 0.9, 0.99)
#: Lower edges of the lateness bins (seconds); the last bin is open.
LATENESS_EDGES = (0, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600)
#: The snapshot columns the audit reads (Parquet reads no others).
COLUMNS = ('project', 'queue', 'id', 'created', 'ttl', 'expires', 'due',
           'delay', 'claim_id', 'claimed_at')


def prepare(snapshot):
    """The snapshot with ``due_at``, ``never_deliverable``, ``early`` and
    ``lateness`` (seconds; null when the claim time is unknown)."""
    due_at = F.coalesce(F.col('due'), F.col('created'))
    claimed = F.col('claimed_at')
    return (snapshot.select(*COLUMNS).withColumn('due_at', due_at)
            .withColumn('never_deliverable', F.col('expires') <= due_at)
            .withColumn('early', claimed.isNotNull() & (claimed < due_at))
            .withColumn('lateness', F.when(claimed >= due_at,
                                           claimed - due_at)))


def _lateness_bin(late):
    """The index into ``LATENESS_EDGES`` of a lateness column."""
    return functools.reduce(operator.add, [
        (late >= F.lit(edge)).cast('int') for edge in LATENESS_EDGES[1:]])


def queue_stats(prepared, now):
    """Per project and queue, in one aggregation: the ``queues`` columns
    and ``lateness_bins``, timed claims per lateness bin (an array over
    ``LATENESS_EDGES``). Unordered."""
    waiting = F.col('due_at') > F.lit(now)
    claimed = F.col('claimed_at').isNotNull()
    late = F.percentile_approx('lateness', list(PERCENTILES), 1000)
    in_bin = _lateness_bin(F.col('lateness'))
    stats = prepared.groupBy('project', 'queue').agg(
        F.count(F.lit(1)).alias('messages'),
        F.sum((waiting & ~claimed).cast('long')).alias('delayed'),
        F.sum(claimed.cast('long')).alias('claimed'),
        F.sum(F.col('never_deliverable').cast('long'))
        .alias('never_deliverable'),
        F.sum(F.col('early').cast('long')).alias('early_claims'),
        F.count('lateness').alias('claims_timed'),
        late.alias('_late'),
        F.min(F.when(waiting, F.col('due_at'))).alias('next_due'),
        F.array(*[F.count(F.when(in_bin == i, 1))
                  for i in range(len(LATENESS_EDGES))])
        .alias('lateness_bins'))
    for i, p in enumerate(PERCENTILES):
        stats = stats.withColumn('lateness_p%d' % round(p * 100),
                                 F.col('_late')[i])
    return stats.drop('_late')


def queues(prepared, now):
    """Per project and queue: counts by state, never deliverable and
    early claims, and lateness percentiles (seconds). Unordered."""
    return queue_stats(prepared, now).drop('lateness_bins')


def lateness_of(stats):
    """The lateness histogram (``lateness_histogram``'s rows) out of
    ``queue_stats``."""
    return (stats.select('project', 'queue', F.posexplode('lateness_bins')
                         .alias('bin', 'claims'))
            .filter(F.col('claims') > 0))


def forecast(prepared, now, hours):
    """Messages coming due per minute over the next ``hours``, per
    project and queue (only those that can still be delivered).
    Unordered."""
    end = now + hours * 3600
    due_at = F.col('due_at')
    return (prepared
            .filter((due_at > F.lit(now)) & (due_at <= F.lit(end)) &
                    ~F.col('never_deliverable') &
                    F.col('claimed_at').isNull())
            .withColumn('minute', F.timestamp_seconds(
                F.floor(due_at / 60) * 60))
            .groupBy('project', 'queue', 'minute')
            .agg(F.count(F.lit(1)).alias('due')))


def lateness_histogram(prepared):
    """Timed claims per project, queue and lateness bin (an index into
    ``LATENESS_EDGES``): ``project queue bin claims``. Unordered."""
    late = F.col('lateness')
    return (prepared.filter(late.isNotNull())
            .groupBy('project', 'queue', _lateness_bin(late).alias('bin'))
            .agg(F.count(F.lit(1)).alias('claims')))


def exceptions(prepared):
    """The messages ``never_deliverable`` or ``early_claims`` name."""
    return prepared.filter('never_deliverable or early')


def never_deliverable(prepared):
    """The messages whose ttl ends before they are due."""
    return prepared.filter('never_deliverable').select(
        'project', 'queue', 'id', 'created', 'due_at', 'expires', 'ttl',
        'delay')


def early_claims(prepared):
    """The messages claimed before they were due."""
    return prepared.filter('early').select(
        'project', 'queue', 'id', 'due_at', 'claimed_at', 'claim_id',
        (F.col('due_at') - F.col('claimed_at')).alias('early_by'))
