"""A lighter HTTP client for Zaqar's webhook task, in dispatcher threads.

Zaqar's webhook task (``zaqar.notification.tasks.webhook``) makes each
push with ``requests.post``, which builds a session, a connection pool
and a retry policy for every request: about 1 ms of CPU a push here,
three quarters of what a push costs the dispatcher. ``install()`` puts
a stand-in for the ``requests`` module into that task's module: in a
thread that called ``use_here()`` (the dispatcher's subscriber threads),
a POST to a plain ``http://`` URL goes through Python's ``http.client``,
one connection per push, as ``requests.post`` makes it (about 0.3 ms);
everything else, and every other thread (Zaqar's own notifier, if it
runs in the same process), uses ``requests`` as before.

Cases ``http.client`` would not treat as ``requests`` does are left to
``requests``: ``https://`` (its CA bundle and TLS options), credentials
in the URL, a proxy from the environment, and a redirect (the push is
made again through ``requests``, which follows it). A connection error
raises, as ``requests`` does, and Zaqar's task retries per its policy.
"""

import http.client
import threading
import urllib.parse
import urllib.request

import requests

_here = threading.local()


class Response:
    """What the webhook task reads of a reply: ``status_code``, and
    truth as ``requests.Response`` has it (status below 400)."""

    def __init__(self, status, headers, content):
        self.status_code = status
        self.headers = headers
        self.content = content

    @property
    def ok(self):
        return self.status_code < 400

    def __bool__(self):
        return self.ok

    @property
    def text(self):
        return self.content.decode('utf-8', 'replace')


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


def post(url, data=None, headers=None, **kwargs):
    """``requests.post`` for the webhook task (see the module)."""
    target = None if kwargs else _direct(url)
    if target is None:
        return requests.post(url, data=data, headers=headers, **kwargs)
    host, port, path = target
    body = data.encode('utf-8') if isinstance(data, str) else data
    connection = http.client.HTTPConnection(host, port)
    try:
        connection.request('POST', path, body=body, headers=headers or {})
        reply = connection.getresponse()
        response = Response(reply.status, dict(reply.getheaders()),
                            reply.read())
    except (OSError, http.client.HTTPException) as e:
        raise requests.ConnectionError(e)
    finally:
        connection.close()
    if 300 <= response.status_code < 400 and 'location' in {
            k.lower() for k in response.headers}:
        return requests.post(url, data=data, headers=headers)
    return response


class _Requests:
    """The ``requests`` module, but ``post`` as above in threads that
    asked for it."""

    def __init__(self, module):
        self._module = module

    def post(self, url, *args, **kwargs):
        if getattr(_here, 'direct', False) and not args:
            return post(url, **kwargs)
        return self._module.post(url, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._module, name)


_install_lock = threading.Lock()


def install():
    """Put the stand-in into Zaqar's webhook task module (once)."""
    from zaqar.notification.tasks import webhook
    with _install_lock:
        if not isinstance(webhook.requests, _Requests):
            webhook.requests = _Requests(webhook.requests)


def use_here():
    """Let the webhook task use the lighter client in this thread."""
    _here.direct = True
