"""Where ``swift.delay`` answers its callers: a Swift that failed, as
``errors.StoreUnavailable`` (Zaqar's ``ConnectionError``).

A failure is what ``client.Client`` raises once its retries are spent:
a connection error or timeout (``OSError``, ``http.client``'s errors),
a ``swiftclient.ClientException`` with no status, a 5xx, a refused
token (401, 403), a timeout or throttling answer (408, 429), and any
Keystone error. The answers the
driver reads (400, 404, 409, 412, ``responses``) stay
``ClientException`` inside it. ``translated`` is applied to each class
the driver hands out (doc/source/swift.rst, "When Swift fails").
"""

import functools
import http.client
import inspect

from keystoneauth1 import exceptions as keystone_errors
import swiftclient

from zaqar_delay import errors

STORE = 'Swift'
# Statuses that say Swift (or its auth) cannot serve the request now.
FAILED_STATUSES = frozenset((401, 403, 408, 429))


def failed(exc):
    """Whether ``exc`` is a failure of Swift (see the module docstring)."""
    if isinstance(exc, swiftclient.ClientException):
        status = exc.http_status
        return status is None or status >= 500 or status in FAILED_STATUSES
    return isinstance(exc, (OSError, http.client.HTTPException,
                            keystone_errors.ClientException))


def unavailable(exc):
    """``exc`` as ``errors.StoreUnavailable``, its text kept (the URL,
    status and reason of a ``ClientException``), raised ``from None``:
    where it failed inside the client is no news to an operator."""
    return errors.StoreUnavailable(
        store=STORE, cause=str(exc) or type(exc).__name__)


def _generated(results):
    try:
        return (yield from results)
    except Exception as exc:
        if not failed(exc):
            raise
        raise unavailable(exc) from None


def translating(func):
    """``func``, whose failures are raised as ``unavailable``; a
    generator it returns (a listing) is translated as it runs."""
    @functools.wraps(func)
    def answer(*args, **kwargs):
        try:
            result = func(*args, **kwargs)
        except Exception as exc:
            if not failed(exc):
                raise
            raise unavailable(exc) from None
        if inspect.isgenerator(result):
            return _generated(result)
        return result
    return answer


def translated(cls):
    """A subclass of ``cls``, of the same name, whose public methods
    (static and class methods too) are ``translating``."""
    namespace = {'__module__': cls.__module__,
                 '__qualname__': cls.__qualname__, '__doc__': cls.__doc__}
    for name in dir(cls):
        if name.startswith('_'):
            continue
        found = inspect.getattr_static(cls, name)
        if isinstance(found, staticmethod):
            namespace[name] = staticmethod(translating(found.__func__))
        elif isinstance(found, classmethod):
            namespace[name] = classmethod(translating(found.__func__))
        elif inspect.isfunction(found):
            namespace[name] = translating(found)
    return type(cls)(cls.__name__, (cls,), namespace)
