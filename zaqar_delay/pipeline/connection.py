"""One kept-alive HTTP connection to Zaqar, for one poster thread.

Python's ``http.client``, not ``requests``: a post of 20 messages costs
``requests`` about 0.7 ms of CPU in building its request, which is a
third of what the schedule job spends a message. A connection that the
server closed while it was idle (keep-alive timeouts, gunicorn's sync
workers close after each reply) is opened again and the request sent
again once, at once; any other failure raises ``errors.NoReply``, which
the poster retries with backoff.
"""

import http.client
import ssl
import urllib.parse

from zaqar_delay import errors
from zaqar_delay import replies


# What a request on a connection the server has closed meanwhile raises.
_STALE = (http.client.RemoteDisconnected, ConnectionResetError,
          BrokenPipeError, ConnectionAbortedError)


class Connection:
    """Requests to one server (``url``: scheme, host and port), one at a
    time, on one connection kept open between them."""

    def __init__(self, url, timeout):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme == 'https':
            self._make = lambda: http.client.HTTPSConnection(
                parts.hostname, parts.port or 443, timeout=timeout,
                context=ssl.create_default_context())
        elif parts.scheme == 'http':
            self._make = lambda: http.client.HTTPConnection(
                parts.hostname, parts.port or 80, timeout=timeout)
        else:
            raise ValueError('not an http(s) URL: %r' % url)
        self._prefix = parts.path.rstrip('/')
        self._conn = None
        self._used = False

    def request(self, method, path, body=None, headers=None):
        """The server's reply to one request (``path`` below the URL's)."""
        if isinstance(body, str):
            body = body.encode('utf-8')
        for last in (False, True):
            fresh = self._conn is None or not self._used
            try:
                return self._once(method, self._prefix + path, body,
                                  headers or {})
            except _STALE as exc:
                self.close()
                if fresh or last:
                    raise errors.NoReply(exc)
            except (OSError, http.client.HTTPException) as exc:
                self.close()
                raise errors.NoReply(exc)

    def _once(self, method, path, body, headers):
        if self._conn is None:
            self._conn = self._make()
            self._used = False
        self._conn.request(method, path, body=body, headers=headers)
        self._used = True
        reply = self._conn.getresponse()
        content = reply.read()
        if reply.will_close:
            self.close()
        return replies.Reply(reply.status, content, reason=reply.reason)

    def close(self):
        if self._conn is not None:
            self._conn.close()
            self._conn = None
