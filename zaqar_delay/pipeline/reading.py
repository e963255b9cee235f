"""Reading the jobs' inputs: Parquet, CSV or JSON lines, columns by name.

Every format gives its columns by name: a CSV file's header names its
columns, in any order, and every CSV file of an input must have the
header of the first (Spark checks each file's header against it as it
reads the file; :func:`input_error` tells that refusal apart).
"""

import re

from pyspark.sql import functions as F
from pyspark.sql import types as T

from zaqar_delay.pipeline import formats

_CSV = {'header': True, 'mode': 'PERMISSIVE', 'multiLine': True,
        'escape': '"'}
_CORRUPT = '_corrupt_record'    # Spark's column for a malformed line
_HEADER_ERROR = re.compile(
    r'((?:CSV header|Number of column in CSV header).*?)\s*'
    r'CSV file: (\S+)', re.DOTALL)


def read(spark, paths, fmt, text_schema, all_columns=False):
    """A DataFrame of the inputs, their columns matched by name.

    Parquet keeps its own columns and types. CSV has the columns its
    header names, those of ``text_schema`` cast to its types, the others
    text. JSON lines have ``text_schema``'s columns; with
    ``all_columns``, also the others some line has (finding them is a
    pass over the input), as text.
    """
    fmt = fmt or formats.guess_format(paths[0])
    paths = list(paths)
    if fmt == 'parquet':
        return spark.read.parquet(*paths)
    if fmt == 'csv':
        names = spark.read.csv(paths, **_CSV).columns   # the first header
        frame = spark.read.csv(paths, schema=_text(names),
                               enforceSchema=False, **_CSV)
        return frame.select(*[
            F.col(name).cast(text_schema[name].dataType).alias(name)
            if name in text_schema.names else F.col(name)
            for name in names])
    schema = text_schema
    if all_columns:
        found = [name for name in spark.read.json(paths).columns
                 if name != _CORRUPT]
        schema = T.StructType(
            [field for field in text_schema.fields if field.name in found] +
            list(_text(name for name in found
                       if name not in text_schema.names).fields))
    return spark.read.json(paths, schema=schema)


def input_error(exc):
    """One line saying which CSV file Spark refused for a header unlike
    the first file's, when that is what ``exc`` is; else None."""
    found = _HEADER_ERROR.search(str(exc))
    if not found:
        return None
    return '%s: its header differs from the first CSV file\'s (every ' \
        'file must have the same header): %s' % (
            found.group(2), ' '.join(found.group(1).split()))


def _text(names):
    return T.StructType([T.StructField(name, T.StringType())
                         for name in names])
