"""Writes of Swift objects that expire.

Everything ``swift.delay`` writes expires with what it stands for
(``X-Delete-At``). Swift refuses an ``X-Delete-At`` in its past with a
400, and a time worked out when a write is made can be past when Swift
gets it: upstream's put-or-create makes a missing container first and
then writes again with the same headers, and a 1-second claim under load
crosses the second. So every expiring write goes through ``put`` or
``expire``, which work the time out at each try and try once more after
a 400.
"""

import time

import swiftclient

from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import upstream


def delete_at(expires):
    """``X-Delete-At`` for ``expires``: Swift refuses a time in its past."""
    return str(max(int(expires), int(time.time()) + 1))


def put(client, container, name, content, expires, headers=None, **kwargs):
    """Write an object that expires at ``expires``, making its container
    if it has none; ``kwargs`` as for ``swiftclient.put_object``."""
    def write():
        upstream.put_or_create_container(
            client, container, name, content, headers=dict(
                headers or {}, **{'X-Delete-At': delete_at(expires)}),
            **kwargs)
    _again_if_refused(write)


def expire(client, container, name, expires, headers=None):
    """Move an object's expiry to ``expires``. A POST replaces every
    metadata header of the object: ``headers`` are the ones to keep."""
    def write():
        client.post_object(container, name, dict(
            headers or {}, **{'X-Delete-At': delete_at(expires)}))
    _again_if_refused(write)


def _again_if_refused(write):
    try:
        return write()
    except swiftclient.ClientException as exc:
        if exc.http_status != responses.BAD_REQUEST:
            raise
    return write()
