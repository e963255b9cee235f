"""Writing the export as Parquet (``zaqar-delay-manage export --format
parquet``)."""

from pyspark.sql import types as T

from zaqar_delay.pipeline import schemas
from zaqar_delay.pipeline import session

#: The columns of a snapshot written as Parquet: the audit's, and the
#: body as JSON text (null without ``--with-body``).
SNAPSHOT = T.StructType(list(schemas.SNAPSHOT.fields) + [
    T.StructField('body', T.StringType())])


def json_to_parquet(paths, out, schema, master='local[1]'):
    """Write the JSON lines files ``paths`` as the Parquet folder
    ``out`` (one file, replaced if there), with ``schema``'s columns;
    returns how many records."""
    spark = session.spark(master, 'zaqar-delay-export')
    try:
        frame = spark.read.json(list(paths), schema=schema).cache()
        frame.coalesce(1).write.mode('overwrite').parquet(out)
        return frame.count()
    finally:
        spark.stop()
