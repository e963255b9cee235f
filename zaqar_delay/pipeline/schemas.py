"""The columns the pipeline jobs read and write."""

from pyspark.sql import types as T

#: Columns a schedule input may have, matched by name (in any order),
#: and those it must have. CSV and JSON lines are read with every
#: column as text (a JSON body object or array arrives as its JSON
#: text), so that a bad value is rejected with a reason, not nulled.
SCHEDULE_COLUMNS = ('project', 'queue', 'body', 'ttl', 'delay',
                    'deliver_at')
SCHEDULE_REQUIRED = ('queue', 'body')
#: Columns a schedule input may have that the job ignores: a run's
#: rejects (``REJECT``) are an input, to post them again.
SCHEDULE_IGNORED = ('reason',)

SCHEDULE_TEXT = T.StructType([T.StructField(name, T.StringType())
                              for name in SCHEDULE_COLUMNS])

#: A rejected input row: its columns as text and why it was rejected.
REJECT = T.StructType(list(SCHEDULE_TEXT.fields) + [
    T.StructField('reason', T.StringType())])

#: What posting a partition reports: one row per queue for the messages
#: posted and one per refused row.
POST_RESULT = T.StructType([
    T.StructField('status', T.StringType()),
    T.StructField('count', T.LongType())] + list(REJECT.fields))

#: An export record (``zaqar-delay-manage export``); times are UNIX
#: seconds.
SNAPSHOT = T.StructType([T.StructField(name, kind()) for name, kind in (
    ('project', T.StringType), ('queue', T.StringType),
    ('id', T.StringType), ('created', T.DoubleType), ('ttl', T.LongType),
    ('expires', T.DoubleType), ('due', T.DoubleType),
    ('delay', T.DoubleType), ('claim_id', T.StringType),
    ('claimed_at', T.DoubleType), ('claim_expires', T.DoubleType),
    ('claim_count', T.LongType), ('snapshot_at', T.DoubleType))])

#: A history export record (``zaqar-delay-manage export --history``,
#: ``zaqar_delay.history.export``): one event of a message. Every event
#: has ``project queue message_id kind at``; the other columns are its
#: kind's, null otherwise. Times are UNIX seconds.
#:
#: ============================  ==========================================
#: Column                        Meaning (kinds that fill it)
#: ============================  ==========================================
#: ``kind``                      posted, claimed, released, claim_expired,
#:                               dead_lettered, deleted, expired, replayed,
#:                               pushed
#: ``at``                        when it happened (Zaqar's clock)
#: ``ttl delay due dedup``       posted: as posted; ``due`` = created +
#:                               delay, the time it may be delivered
#: ``claim_id``                  claimed, released, claim_expired,
#:                               dead_lettered, deleted (with a claim)
#: ``claim_count``               claimed: the message's claim count
#: ``wait``                      released, claim_expired: backoff applied
#: ``to``                        dead_lettered, replayed: the queue
#: ``popped``                    deleted: true for a pop
#: ``subscriber status``         pushed: to whom, the HTTP status
#: ``replayed_as``               replayed: the copy's message id
#: ``body``                      posted, with ``--with-body``: JSON text
#: ============================  ==========================================
HISTORY = T.StructType([T.StructField(name, kind()) for name, kind in (
    ('project', T.StringType), ('queue', T.StringType),
    ('message_id', T.StringType), ('kind', T.StringType),
    ('at', T.DoubleType), ('ttl', T.LongType), ('delay', T.DoubleType),
    ('due', T.DoubleType), ('dedup', T.StringType),
    ('claim_id', T.StringType), ('claim_count', T.LongType),
    ('wait', T.DoubleType), ('to', T.StringType),
    ('popped', T.BooleanType), ('subscriber', T.StringType),
    ('status', T.LongType), ('replayed_as', T.StringType),
    ('body', T.StringType))])
