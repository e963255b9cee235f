"""How a console command ends when it cannot do what it was asked.

One line on stderr, ``<command>: <what happened>``, and exit status 1,
or 2 for arguments that cannot work together (as argparse exits). A
missing or unreadable config file, a store that cannot be reached or
loaded, and an ``errors.CommandFailure`` raised by the command itself
end that way; anything else is a bug and keeps its traceback
(doc/source/admin.rst).
"""

import re
import sys

from oslo_config import cfg
import redis.exceptions
from zaqar.common import errors as zaqar_errors
from zaqar.storage import errors as storage_errors

from zaqar_delay import errors


# What a store that does not answer raises, through Zaqar's drivers or
# the clients a command makes itself; pymongo's connection errors once
# pymongo is loaded (a command without a mongodb store never loads it,
# and importing it took 0.17 s of each command's start).
_UNREACHABLE = (redis.exceptions.ConnectionError,
                redis.exceptions.TimeoutError,
                storage_errors.ConnectionError,
                ConnectionError)


def unreachable():
    """The exception classes of a store that does not answer."""
    mongo = sys.modules.get('pymongo.errors')
    if mongo is None:
        return _UNREACHABLE
    return _UNREACHABLE + (mongo.ConnectionFailure,)


def brief(exc):
    """The first line of ``exc``'s text, without pymongo's topology
    description."""
    text = (str(exc) or type(exc).__name__).strip().splitlines()[0]
    return re.split(r' \(configured timeouts|, Timeout: ', text)[0]


def run(prog, func, *args, err=None):
    """``func(*args)``'s exit status; a failure (see the module
    docstring) is written to ``err`` (stderr) as one line."""
    try:
        return func(*args)
    except errors.CommandFailure as exc:
        failure = exc
    except cfg.Error as exc:
        failure = errors.CommandFailure(brief(exc))
    except zaqar_errors.InvalidDriver as exc:
        failure = errors.CommandFailure('cannot load the store: %s'
                                        % brief(exc))
    except unreachable() as exc:
        failure = errors.CommandFailure('cannot reach the store: %s'
                                        % brief(exc))
    (err or sys.stderr).write('%s: %s\n' % (prog, failure))
    return failure.status
