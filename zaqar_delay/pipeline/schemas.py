"""The columns the pipeline jobs read and write."""

from pyspark.sql import types as T

#: Columns a schedule input may have. CSV and JSON lines are read with
#: every column as text (a JSON body object or array arrives as its JSON
#: text), so that a bad value is rejected with a reason, not nulled.
SCHEDULE_COLUMNS = ('project', 'queue', 'body', 'ttl', 'delay',
                    'deliver_at')

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
