"""Reading the jobs' inputs: Parquet, CSV or JSON lines."""

FORMATS = ('parquet', 'csv', 'json')


def guess_format(path):
    """The format a path's extension names (``.jsonl`` is JSON lines)."""
    name = path.rstrip('/').lower()
    for ext, fmt in (('.parquet', 'parquet'), ('.csv', 'csv'),
                     ('.jsonl', 'json'), ('.json', 'json'),
                     ('.ndjson', 'json')):
        if name.endswith(ext):
            return fmt
    raise ValueError('cannot tell the format of %s: give --format '
                     '(parquet, csv or json)' % path)


def read(spark, paths, fmt, text_schema):
    """A DataFrame of the inputs. CSV (with a header) and JSON lines are
    read with ``text_schema``; Parquet keeps its own column types."""
    fmt = fmt or guess_format(paths[0])
    if fmt == 'parquet':
        return spark.read.parquet(*paths)
    if fmt == 'csv':
        return spark.read.csv(list(paths), header=True, schema=text_schema,
                              mode='PERMISSIVE', multiLine=True,
                              escape='"')
    return spark.read.json(list(paths), schema=text_schema)
