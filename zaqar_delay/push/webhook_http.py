"""The HTTP POST of a webhook push, with timeouts.

``requests.post`` builds a session, a connection pool and a retry
policy for every request: about 1 ms of CPU a push here, three quarters
of what a push costs the dispatcher. ``post`` sends a POST to a plain
``http://`` URL through Python's ``http.client`` instead, one connection
per push, as ``requests.post`` makes it (about 0.3 ms). Cases
``http.client`` would not treat as ``requests`` does are left to
``requests``: ``https://`` (its CA bundle and TLS options), credentials
in the URL, a proxy from the environment, and a redirect (the push is
made again through ``requests``, which follows it). Both are given the
same (connect, read) timeouts.
"""

import http.client
import urllib.parse
import urllib.request

import requests

from zaqar_delay import replies


def _direct(url):
    """(host, port, path) to POST to with ``http.client``, or None when
    ``requests`` should make the request."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != 'http' or not parts.hostname or '@' in parts.netloc:
        return None
    if (urllib.request.getproxies().get('http')
            and not urllib.request.proxy_bypass(parts.hostname)):
        return None
    path = parts.path or '/'
    if parts.query:
        path += '?' + parts.query
    return parts.hostname, parts.port or 80, path


def post(url, data=None, headers=None, timeout=None, light=True):
    """``requests.post(url, data, headers, timeout)``, through
    ``http.client`` when ``light`` and the URL allows (see the module).

    ``timeout`` is ``(connect, read)`` seconds, or None for none. A
    connection that fails or times out raises ``requests``' error
    (``ConnectionError``, ``Timeout``).
    """
    target = _direct(url) if light else None
    if target is None:
        return requests.post(url, data=data, headers=headers,
                             timeout=timeout)
    host, port, path = target
    body = data.encode('utf-8') if isinstance(data, str) else data
    connect, read = timeout or (None, None)
    connection = http.client.HTTPConnection(host, port, timeout=connect)
    try:
        connection.connect()
        connection.sock.settimeout(read)
        connection.request('POST', path, body=body, headers=headers or {})
        reply = connection.getresponse()
        response = replies.Reply(reply.status, reply.read(),
                                 headers=dict(reply.getheaders()))
    except TimeoutError as e:
        raise requests.Timeout(e) from None
    except (OSError, http.client.HTTPException) as e:
        raise requests.ConnectionError(e) from None
    finally:
        connection.close()
    if 300 <= response.status_code < 400 and 'location' in {
            k.lower() for k in response.headers}:
        return requests.post(url, data=data, headers=headers,
                             timeout=timeout)
    return response
