"""DataFrame transforms of the ``schedule`` job (pure: no I/O)."""

from pyspark.sql import functions as F
from pyspark.sql import types as T

from zaqar_delay.pipeline import schemas

QUEUE_NAME = r'^[a-zA-Z0-9_.-]{1,64}$'    # Zaqar's, dots and all
WHOLE = r'^\s*[0-9]{1,10}\s*$'          # seconds, fits a 64-bit long
NUMBER = r'^\s*-?[0-9]+(\.[0-9]+)?\s*$'
_NESTED = (T.StructType, T.MapType, T.ArrayType)


def check_columns(columns):
    """Raise ValueError (one line) unless ``columns`` has every required
    schedule column and no unknown one."""
    missing = [c for c in schemas.SCHEDULE_REQUIRED if c not in columns]
    unknown = [c for c in columns if c not in schemas.SCHEDULE_COLUMNS +
               schemas.SCHEDULE_IGNORED]
    problems = (['no %s column' % ' or '.join(missing)] if missing else []) \
        + (['unknown column%s %s' % ('s' * (len(unknown) > 1),
                                     ', '.join(map(repr, unknown)))]
           if unknown else [])
    if problems:
        raise ValueError('the input has %s (the columns are %s; %s are '
                         'required)' % (
                             ' and '.join(problems),
                             ', '.join(schemas.SCHEDULE_COLUMNS),
                             ' and '.join(schemas.SCHEDULE_REQUIRED)))


def as_text(df, default_project=None):
    """The schedule columns as text; missing optional ones are null and
    a missing project is ``default_project``."""
    cols = []
    for name in schemas.SCHEDULE_COLUMNS:
        if name in df.columns:
            col = F.col(name)
            if isinstance(df.schema[name].dataType, _NESTED):
                col = F.to_json(col)
            col = col.cast('string')
        else:
            col = F.lit(None).cast('string')
        if name == 'project' and default_project is not None:
            col = F.coalesce(col, F.lit(default_project))
        cols.append(col.alias(name))
    return df.select(*cols)


def _reason(df):
    """Why a row cannot be posted, or null."""
    queue, body, ttl, delay, at = (F.col(c) for c in (
        'queue', 'body', 'ttl', 'delay', 'deliver_at'))
    at_time = F.try_to_timestamp(at)
    checks = [
        (queue.isNull() | (F.trim(queue) == ''), 'queue is missing'),
        (~queue.rlike(QUEUE_NAME), 'queue name must be 1 to 64 letters, '
         'digits, dots, hyphens or underscores'),
        (body.isNull(), 'body is missing'),
        (ttl.isNotNull() & ~ttl.rlike(WHOLE),
         'ttl must be a whole number of seconds'),
        (delay.isNotNull() & ~delay.rlike(WHOLE),
         'delay must be a whole number of seconds, 0 or more'),
        (delay.isNotNull() & at.isNotNull(),
         'give delay or deliver_at, not both'),
        (at.isNotNull() & ~at.rlike(NUMBER) & at_time.isNull(),
         'deliver_at must be an ISO 8601 time or UNIX seconds'),
    ]
    reason = F.lit(None).cast('string')
    for failed, text in reversed(checks):
        reason = F.when(failed, F.lit(text)).otherwise(reason)
    return reason


def validate(df):
    """Text rows with a ``reason`` column: null for rows to post."""
    return df.withColumn('reason', _reason(df))


def to_post(validated):
    """Valid rows, typed: ttl and delay as longs, deliver_at as UNIX
    seconds (it becomes a delay when posted)."""
    at = F.col('deliver_at')
    return (validated.filter(F.col('reason').isNull())
            .select('project', 'queue', 'body',
                    F.trim('ttl').cast('long').alias('ttl'),
                    F.trim('delay').cast('long').alias('delay'),
                    F.when(at.rlike(NUMBER), F.trim(at).cast('double'))
                    .otherwise(F.unix_micros(F.try_to_timestamp(at)) / 1e6)
                    .alias('deliver_at')))


def rejects(validated):
    """Rows that failed validation, with their reason."""
    return validated.filter(F.col('reason').isNotNull())
