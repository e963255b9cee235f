"""``wsgi.delay``'s routes for a python-zaqarclient queue, which knows
only upstream's.

Each call is one HTTP request made with what the queue's client would
send (its endpoint, Keystone token or project header, client id and TLS
settings, from ``Client._request_and_transport``, the one private name
of python-zaqarclient used here, checked with 4.x); an error answer
raises python-zaqarclient's error for its status (``ResourceNotFound``
404, ``ConflictError`` 409, ``MalformedRequest`` 400, ...).

    from zaqar_delay.client import api
    api.show(queue, message_id)['due']
    api.reschedule(queue, message_id, delay=60)     # or due='...Z'
    api.move(queue, 'work', limit=10)               # or ids=[...]
"""

import requests
from zaqarclient.transport import base

TIMEOUT = 30
# Asks for each message's due time (the transport's dues.HEADER).
DUE_HEADER = 'Zaqar-Delay-Due'


def call(queue, method, path, body=None):
    """``method`` on ``/v2/queues/<queue>/<path>``; the answer's JSON."""
    req, _ = queue.client._request_and_transport()
    verify = (req.cert or True) if req.verify else False
    reply = requests.request(
        method, '%s/v2/queues/%s/%s' % (req.endpoint.rstrip('/'),
                                        queue.name, path),
        json=body, headers=dict(req.headers, **{DUE_HEADER: 'true'}),
        verify=verify, timeout=TIMEOUT)
    if reply.status_code >= 400:
        error = base.Transport.http_to_zaqar.get(reply.status_code)
        try:
            found = reply.json()
            details = {'title': found['title'],
                       'description': found['description']}
        except (ValueError, KeyError, TypeError):
            details = {'text': reply.text}
        if error is None:
            reply.raise_for_status()
        raise error(**details)
    return reply.json() if reply.content else None


def _when(delay, due):
    return ({'delay': delay} if delay is not None else
            {'due': due} if due is not None else {})


def show(queue, message_id):
    """One message, with its ``due`` (ISO 8601, ms)."""
    return call(queue, 'GET', 'messages/' + message_id)


def reschedule(queue, message_id, delay=None, due=None):
    """Make a message due ``delay`` seconds from now (0: now) or at
    ``due`` (ISO 8601 with its zone); the message, with its new due."""
    return call(queue, 'PATCH', 'messages/' + message_id,
                _when(delay, due))


def move(queue, to, ids=None, limit=None, delay=None, due=None):
    """Move messages no claim holds to the queue ``to``: ``ids``, or the
    first ``limit`` (10 by default); [{id, new_id, href}] of those
    moved."""
    body = dict(_when(delay, due), to=to)
    if ids is not None:
        body['ids'] = list(ids)
    elif limit is not None:
        body['limit'] = limit
    return call(queue, 'POST', 'messages/move', body)['moved']
