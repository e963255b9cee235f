"""DataFrame transforms of the audit's true lateness (pure: no I/O).

They read an exported history (:data:`schemas.HISTORY`): every event of
every message of queues with ``_history_ttl``. A message's *delivery* is
its first claim or its first push answered with a 2xx status, whichever
came first; its *lateness* is the delivery's time minus its due time
(the posted event's ``due``, or the post's time for a message posted
without one), negative for an *early* delivery (which must never
happen). Due times and pushes are timed to the millisecond, events of
claims to the second they happened in: a claim is judged against the
second of its due time (late by whole seconds, early only when it came
in an earlier second). A message whose posted event is not in the
history (trimmed before the export) has no known due time and is left
out.

Percentiles are nearest-rank: the p-th percentile of n values is the
ceil(p * n)-th smallest (Spark's ``percentile_approx``, exact up to one
part in ``ACCURACY`` of the rank).
"""

from pyspark.sql import functions as F

from zaqar_delay.history import events

# ``events.PUSHED`` where pushes keep history.
PUSHED = getattr(events, 'PUSHED', 'pushed')
PERCENTILES = (0.5, 0.9, 0.99)
ACCURACY = 10000
#: The history columns these transforms read (Parquet reads no others).
COLUMNS = ('project', 'queue', 'message_id', 'kind', 'at', 'due', 'status')


def deliveries(history):
    """One row per message posted in ``history``: ``project queue
    message_id due_at first_claim first_push delivered_at claims
    lateness early`` (``delivered_at`` and after null when it was never
    delivered; ``claims``: how many times it was claimed)."""
    kind, at = F.col('kind'), F.col('at')
    pushed_ok = ((kind == PUSHED) & (F.col('status') >= 200) &
                 (F.col('status') < 300))
    per_message = history.select(*COLUMNS).groupBy(
        'project', 'queue', 'message_id').agg(
        F.min(F.when(kind == events.POSTED, F.coalesce(F.col('due'), at)))
        .alias('due_at'),
        F.min(F.when(kind == events.CLAIMED, at)).alias('first_claim'),
        F.min(F.when(pushed_ok, at)).alias('first_push'),
        F.count(F.when(kind == events.CLAIMED, 1)).alias('claims'))
    delivered = F.least('first_claim', 'first_push')    # nulls skipped
    # A delivery timed to the second (a claim's event) happened within
    # that second: it is judged against its due time's second.
    due = F.when(F.col('delivered_at') == F.floor('delivered_at'),
                 F.floor('due_at')).otherwise(F.col('due_at'))
    return (per_message.filter(F.col('due_at').isNotNull())
            .withColumn('delivered_at', delivered)
            .withColumn('lateness', F.col('delivered_at') - due)
            .withColumn('early', F.col('delivered_at') < due))


def _lateness(late):
    """Aggregates of a lateness column: percentiles as ``_late``, max."""
    return (F.percentile_approx(late, list(PERCENTILES), ACCURACY)
            .alias('_late'), F.max(late).alias('lateness_max'))


def _spread(frame):
    for i, p in enumerate(PERCENTILES):
        frame = frame.withColumn('lateness_p%d' % round(p * 100),
                                 F.col('_late')[i])
    return frame.drop('_late')


def queue_lateness(delivered):
    """Per project and queue, out of ``deliveries``: ``posted
    delivered early lateness_p50 lateness_p90 lateness_p99
    lateness_max`` (seconds; early deliveries count, negative), ``claims``
    (all claims), ``claimed`` (messages claimed at least once),
    ``claims_max``, ``retried`` (messages claimed more than once), and
    ``first_delivery`` and ``last_delivery`` times. Unordered."""
    at, claims = F.col('delivered_at'), F.col('claims')
    return _spread(delivered.groupBy('project', 'queue').agg(
        F.count(F.lit(1)).alias('posted'),
        F.count(at).alias('delivered'),
        F.count(F.when(F.col('early'), 1)).alias('early'),
        *_lateness(F.col('lateness')),
        F.sum(claims).alias('claims'),
        F.count(F.when(claims > 0, 1)).alias('claimed'),
        F.max(claims).alias('claims_max'),
        F.count(F.when(claims > 1, 1)).alias('retried'),
        F.min(at).alias('first_delivery'),
        F.max(at).alias('last_delivery')))


def retries(delivered):
    """Messages per project, queue and number of claims (``claims
    messages``): how often messages had to be claimed. Unordered."""
    return delivered.groupBy('project', 'queue', 'claims').agg(
        F.count(F.lit(1)).alias('messages'))


def early_deliveries(delivered):
    """The messages delivered before they were due."""
    return delivered.filter('early').select(
        'project', 'queue', 'message_id', 'due_at', 'delivered_at',
        (F.col('due_at') - F.col('delivered_at')).alias('early_by'))


def lateness_over_time(delivered, width, by_queue=True):
    """Lateness of the deliveries made in each ``width`` seconds
    (``start``: UNIX seconds of the bucket's start), per project and
    queue or, ``by_queue`` False, of all queues together:
    ``deliveries lateness_p50 lateness_p90 lateness_p99 lateness_max``.
    Unordered."""
    keys = ('project', 'queue') if by_queue else ()
    start = (F.floor(F.col('delivered_at') / width) * width).cast('double')
    return _spread(delivered.filter(F.col('delivered_at').isNotNull())
                   .groupBy(*keys, start.alias('start')).agg(
                       F.count(F.lit(1)).alias('deliveries'),
                       *_lateness(F.col('lateness'))))
