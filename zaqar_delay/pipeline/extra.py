"""The ``pipeline`` extra (pyspark): the jobs' ``--help`` works without
it, and a run says in one line what is missing."""

import sys

INSTALL = "pip install 'zaqar-delay[pipeline]'"


def missing(exc):
    """``exc``, an ImportError of the job's imports, when pyspark is what
    is missing; any other ImportError is raised again."""
    if not (exc.name or '').startswith('pyspark'):
        raise exc
    return exc


def refused(prog, exc):
    """Say on stderr that ``prog`` needs the extra (``exc``: what
    ``missing`` returned); the exit status, 1."""
    sys.stderr.write('%s: needs the pipeline extra (%s): %s\n'
                     % (prog, INSTALL, exc))
    return 1
