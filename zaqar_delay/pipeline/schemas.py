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
SNAPSHOT = T.StructType([
    T.StructField('project', T.StringType()),
    T.StructField('queue', T.StringType()),
    T.StructField('id', T.StringType()),
    T.StructField('created', T.DoubleType()),
    T.StructField('ttl', T.LongType()),
    T.StructField('expires', T.DoubleType()),
    T.StructField('due', T.DoubleType()),
    T.StructField('delay', T.DoubleType()),
    T.StructField('claim_id', T.StringType()),
    T.StructField('claimed_at', T.DoubleType()),
    T.StructField('claim_expires', T.DoubleType()),
    T.StructField('claim_count', T.LongType()),
    T.StructField('snapshot_at', T.DoubleType()),
])
