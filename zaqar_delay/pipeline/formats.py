"""The input formats of the jobs, by name and by extension (pure: the
jobs' command lines read them without the pipeline extra)."""

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
