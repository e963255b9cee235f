"""Locks made of Swift objects: one writer wins a name until it expires.

A lock is a small object whose content names its holder and whose
``X-Delete-At`` is its expiry. Liveness is judged with Zaqar's clock
(``now``), as for every delay driver: a lock whose expiry passed is
removed with a delete conditional on that expiry (``X-If-Delete-At``),
so a renewed lock is never removed, and the name is then taken with a
create-only write (``If-None-Match: *``), so only one writer can win it.
Claims lock messages this way (``index.Index.lock``), and dispatchers
lease pending pushes (``pushes.Pushes``).
"""

import collections

from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import responses

# A lock's holder, and when the lock expires.
Lock = collections.namedtuple('Lock', 'holder expires')


def create(client, container, name, content, expires, headers=None):
    """Write an object unless one lives there; False when one does."""
    with responses.tolerating(responses.PRECONDITION_FAILED):
        objects.put(client, container, name, content, expires,
                    headers=dict(headers or {}, **{'If-None-Match': '*'}),
                    content_length=len(content))
        return True
    return False


def read(client, container, name):
    """The Lock at ``name``, live or not; None if there is none."""
    with responses.tolerating(responses.NOT_FOUND):
        headers, body = client.get_object(container, name)
        return Lock(body.decode(), int(headers['x-delete-at']))
    return None


def take(client, container, name, holder, expires, now):
    """Take ``name`` for ``holder`` until ``expires``; False when a live
    lock of another holder is there."""
    return take_and(client, container, name, holder, expires, now,
                    lambda: None)[0]


def take_and(client, container, name, holder, expires, now, also):
    """``take``, calling ``also`` (which must not raise) once the write
    is made, at once with its read-back: (True, what ``also`` returned),
    or (False, None)."""
    for _ in range(2):
        if create(client, container, name, holder.encode(), expires):
            # Two create-only writes that race can both succeed; the
            # newer one is what Swift returns from now on.
            held, seen = parallel.together(
                lambda: read(client, container, name), also)
            if held is not None and held.holder == holder:
                return True, seen
            return False, None
        held = read(client, container, name)
        if held is not None and held.holder == holder:
            # Our own write: swiftclient retried a PUT whose first try
            # was applied, and the retry found it.
            return True, also()
        if held is not None and held.expires > now:
            return False, None
        if held is not None:
            release(client, container, name, held.expires)
    return False, None


def release(client, container, name, expires):
    """Delete the lock at ``name`` if it still expires at ``expires``
    (nobody renewed or retook it); gone already is fine."""
    with responses.tolerating(responses.NOT_FOUND,
                              responses.PRECONDITION_FAILED):
        client.delete_object(container, name,
                             headers={'X-If-Delete-At': str(int(expires))})
