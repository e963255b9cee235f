"""A script call sent on a connection of the client's pool, packed here.

A registered script's call (``Script.__call__``) goes through redis-py's
command layers: the argument encoder and packer, the response callbacks
and the observability hooks. For the scripts of a claim, a post or a
list, called with about thirty arguments, those layers cost more than
the script: on this project's test machine (redis-py 8.1, no hiredis),
an EVALSHA of 27 arguments took 77 µs through ``Redis.evalsha`` and
26 µs written and read on a socket; redis-py packed it in 23 µs,
``pack`` here in 7. ``Direct`` keeps what those layers do for a script:
the client's retry of connection errors (``Retry.call_with_retry``,
disconnecting between tries), errors raised as redis-py raises them, a
script the server lacks loaded once (``NOSCRIPT``), and a connection
given back to the pool in any case, closed when a reply may be left
half read.
"""

import re

import redis
from redis import exceptions

# redis-py before 5.3 names the command when it takes a connection.
_TAKE = () if tuple(map(int, re.match(r'(\d+)\.(\d+)', redis.__version__)
                        .groups())) >= (5, 3) else ('EVALSHA',)


def _bulk(arg):
    """An argument as redis-py's encoder writes it (bytes, str, int or
    float; DataError for any other)."""
    if isinstance(arg, bytes):
        return arg
    if isinstance(arg, str):
        return arg.encode()
    if isinstance(arg, (int, float)) and not isinstance(arg, bool):
        return repr(arg).encode()
    raise exceptions.DataError(
        'Invalid input of type: %r. Convert to a bytes, string, int or '
        'float first.' % type(arg).__name__)


def pack(args):
    """The RESP request of the command ``args`` (an array of bulk
    strings)."""
    parts = [b'*%d\r\n' % len(args)]
    for arg in map(_bulk, args):
        parts.append(b'$%d\r\n%s\r\n' % (len(arg), arg))
    return b''.join(parts)


class Direct:
    """A script of ``scripting.Scripts`` (a redis-py ``Script``), called
    as one (``keys=``, ``args=``): one EVALSHA, one round trip. With
    ``client=`` (a pipeline), the ``Script`` queues itself."""

    def __init__(self, script, client):
        self._script, self._client = script, client
        self._pool = client.connection_pool

    def _request(self, keys, args):
        return pack(('EVALSHA', self._script.sha, len(keys)) +
                    tuple(keys) + tuple(args))

    def __call__(self, keys=(), args=(), client=None):
        if client is not None:
            return self._script(keys=keys, args=args, client=client)
        try:
            return self._send(self._request(keys, args))
        except exceptions.NoScriptError:
            self._script.sha = self._client.script_load(self._script.script)
            return self._send(self._request(keys, args))

    def _send(self, request):
        conn = self._pool.get_connection(*_TAKE)
        try:
            return conn.retry.call_with_retry(
                lambda: self._ask(conn, request),
                lambda error: conn.disconnect())
        finally:
            self._pool.release(conn)

    @staticmethod
    def _ask(conn, request):
        try:
            conn.send_packed_command([request])
            return conn.read_response()
        except exceptions.ResponseError:
            raise               # read whole: the connection stays usable
        except BaseException:
            conn.disconnect()   # a request or reply may be left half done
            raise
