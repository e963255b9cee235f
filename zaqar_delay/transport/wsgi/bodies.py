"""What a ``wsgi.delay`` request body may ask about due times, checked.

Each check raises Refused (a 400 that says why). Times are unix
seconds; a due time is checked against this host's clock, and again by
the store against its own (``zaqar_delay.delay.check_due``).
"""

import collections
import time

from zaqar_delay import dedup
from zaqar_delay import delay
from zaqar_delay import errors

MOVE_LIMIT = 100        # most messages one move takes
MOVE_DEFAULT = 10
# A message's idempotency key: a post sent again with it (after a reply
# was lost, or a 503) stores no second message while the first lives.
IDEMPOTENCY_KEY = 'idempotency_key'
KEY_LENGTH = 256

Move = collections.namedtuple('Move', 'to ids limit')


class Posting:
    """The rules of ``due`` and ``delay`` in posts and reschedules.

    :param max_delay: ``[transport] max_message_delay``
    :param delay_everywhere: ``[delay] delay_without_default`` is
        ``apply``: a queue without ``_default_message_delay`` honours a
        message's ``delay`` (Zaqar's API drops it there).
    """

    def __init__(self, max_delay, delay_everywhere, clock=time.time):
        self.max_delay = max_delay
        self.delay_everywhere = delay_everywhere
        self.clock = clock

    def _delay(self, value):
        if not delay.whole(value) or not 0 <= value <= self.max_delay:
            raise errors.Refused(
                'The delay of a message must be an integer number of '
                'seconds, at least 0 seconds and at most {0}, not {1!r}.',
                self.max_delay, value)
        return value

    def _due(self, value):
        due = delay.parse_time(value)
        if due - self.clock() > self.max_delay:
            raise errors.Refused(
                'The due time of a message must be at most {0} seconds '
                'ahead (max_message_delay), not {1}.', self.max_delay,
                value)
        return due

    def extras(self, document):
        """For each message of a post's ``document``, what the store gets
        beside what Zaqar's API keeps: ``{'due': t}``, ``{'delay': n}``
        (with ``delay_everywhere``), the identity of its
        ``idempotency_key``, or ``{}``. A message with both a delay and a
        due time, or a bad one, is refused; so is a bad ``delay`` on any
        queue."""
        messages = document.get('messages') if isinstance(
            document, dict) else None
        if not isinstance(messages, list):
            return []
        extras = []
        for message in messages:
            extra = {}
            if isinstance(message, dict):
                extra = self.when(message, required=False)
                if 'delay' in extra and not self.delay_everywhere:
                    extra = {}
                extra.update(self._idempotency(message))
            extras.append(extra)
        return extras

    def _idempotency(self, message):
        """The store's identity of a message with an idempotency key
        (``dedup.IDENTITY``: held for the message's ttl), or {}."""
        if IDEMPOTENCY_KEY not in message:
            return {}
        key = message[IDEMPOTENCY_KEY]
        if not isinstance(key, str) or not 0 < len(key) <= KEY_LENGTH:
            raise errors.Refused(
                '{0} must be a string of 1 to {1} characters, not {2!r}.',
                IDEMPOTENCY_KEY, KEY_LENGTH, key)
        return {dedup.IDENTITY: 'client ' + key}

    def when(self, document, required=True):
        """``{'delay': n}`` or ``{'due': t}`` from ``document`` (a
        reschedule's body, or one message); ``{}`` when it has neither
        and ``required`` is false."""
        if not isinstance(document, dict):
            raise errors.Refused('The body must be a JSON object.')
        if 'delay' in document and 'due' in document:
            raise errors.Refused(
                'A message takes a delay or a due time, not both.')
        if 'due' in document:
            return {'due': self._due(document['due'])}
        if 'delay' in document:
            return {'delay': self._delay(document['delay'])}
        if required:
            raise errors.Refused(
                'Give the new time of the message: {{"delay": seconds}} or '
                '{{"due": "YYYY-MM-DDTHH:MM:SS.sssZ"}}.')
        return {}


def move(document, queue):
    """The ``Move`` a move's body asks for (``to``, and ``ids`` or a
    ``limit``)."""
    if not isinstance(document, dict):
        raise errors.Refused('The body must be a JSON object.')
    to, ids = document.get('to'), document.get('ids')
    if not isinstance(to, str) or not to:
        raise errors.Refused('Name the queue to move messages to: '
                             '{{"to": "queue name", ...}}.')
    if to == queue:
        raise errors.Refused('A move takes messages to another queue.')
    if ids is not None and 'limit' in document:
        raise errors.Refused('A move takes ids or a limit, not both.')
    if ids is not None:
        if (not isinstance(ids, list) or not ids or len(ids) > MOVE_LIMIT
                or not all(isinstance(i, str) for i in ids)):
            raise errors.Refused(
                'ids must be a list of 1 to {0} message ids.', MOVE_LIMIT)
        return Move(to, list(dict.fromkeys(ids)), None)
    limit = document.get('limit', MOVE_DEFAULT)
    if not delay.whole(limit) or not 0 < limit <= MOVE_LIMIT:
        raise errors.Refused('limit must be an integer from 1 to {0}, '
                             'not {1!r}.', MOVE_LIMIT, limit)
    return Move(to, None, limit)
