"""Deduplication keys: a post sent twice stores one message.

A queue whose metadata has ``_dedup_key`` (the name of a top-level field
of message bodies) and optionally ``_dedup_window`` (seconds) stores a
posted message only if no live message of the queue carries the same
value of that field, posted within the window (by default, the message's
ttl); otherwise the post answers with the live message's id in its
place. A body without the field is never deduplicated. Pure: no I/O;
each driver keeps, per queue and value, which message holds it.

A message posted by zaqar-delay itself (a schedule's tick, see
``zaqar_delay.schedules``) may carry its own identity, the ``IDENTITY``
field of the message (never of its body; Zaqar's transports drop
fields they do not know, so no client can set it), held for the
message's ttl, on any queue.
"""

import collections
import hashlib

from oslo_serialization import jsonutils

from zaqar_delay import delay
from zaqar_delay import errors

KEY = '_dedup_key'
WINDOW = '_dedup_window'
IDENTITY = 'zaqar_delay_identity'

# What one posted message is deduplicated by: the digest of its key value
# and how long (seconds) the value stays taken.
Dedup = collections.namedtuple('Dedup', 'digest window')


def check(metadata, max_ttl):
    """Raise Refused for bad ``_dedup_key`` or ``_dedup_window``."""
    if KEY in metadata:
        field = metadata[KEY]
        if not isinstance(field, str) or not field:
            raise errors.Refused(
                '{0} must be the name of a field of message bodies (a '
                'non-empty string), not {1!r}.', KEY, field)
    if WINDOW in metadata:
        window = metadata[WINDOW]
        delay.check_seconds(WINDOW, window, max_ttl,
                            'the maximum message ttl')
        if KEY not in metadata:
            raise errors.Refused('{0} needs {1}.', WINDOW, KEY)


def _digest(value):
    return hashlib.sha256(value.encode()).hexdigest()[:40]


def of_identity(message):
    """The Dedup of a message posted with an ``IDENTITY``, or None."""
    identity = message.get(IDENTITY)
    if not identity:
        return None
    # A prefix no JSON value starts with: no body value shares it.
    return Dedup(_digest('\0' + identity), message['ttl'])


def of_messages(metadata, messages):
    """A Dedup (or None) per message, from its ``IDENTITY`` or else the
    queue's metadata."""
    field = (metadata or {}).get(KEY)
    window = (metadata or {}).get(WINDOW)
    if not isinstance(field, str) or not field:
        return [of_identity(message) for message in messages]
    if not delay.whole(window) or window <= 0:
        window = None
    found = []
    for message in messages:
        body = message.get('body')
        if message.get(IDENTITY):
            found.append(of_identity(message))
            continue
        if not isinstance(body, dict) or field not in body:
            found.append(None)
            continue
        value = jsonutils.dumps(body[field], sort_keys=True)
        found.append(Dedup(_digest(value), window or message['ttl']))
    return found
