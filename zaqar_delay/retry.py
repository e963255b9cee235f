"""Retry backoff: how long a released or expired message waits.

A queue whose metadata has ``_retry_backoff`` (``{"initial": s > 0,
"factor": >= 1, "max": s}``) delays each message a claim gave back:
when the claim is released (claim DELETE) or expires, the message is due
again ``min(max, initial * factor ** (n - 1))`` seconds later (rounded
up to a whole second), ``n`` being its claim count. Pure: no I/O.

The drivers work out a message's backoff when a claim takes it, from
the queue's metadata then, and keep it with the message, so that giving
it back (a release, or the promotion of an expired claim) reads no
metadata.
"""

import collections
import math

from zaqar_delay import errors

KEY = '_retry_backoff'
DEFAULT_FACTOR = 2

Backoff = collections.namedtuple('Backoff', 'initial factor max')


def _number(value):
    return not isinstance(value, bool) and isinstance(value, (int, float))


def check(value, max_delay):
    """The Backoff of a ``_retry_backoff`` value; Refused if bad."""
    if not isinstance(value, dict):
        raise errors.Refused(
            '{0} must be an object like {{"initial": 1, "factor": 2, '
            '"max": 3600}}, not {1!r}.', KEY, value)
    unknown = set(value) - {'initial', 'factor', 'max'}
    if unknown:
        raise errors.Refused('{0} has unknown fields: {1}.', KEY,
                             ', '.join(sorted(unknown)))
    initial = value.get('initial')
    factor = value.get('factor', DEFAULT_FACTOR)
    longest = value.get('max', max_delay)
    if not _number(initial) or initial <= 0:
        raise errors.Refused(
            '{0}.initial must be a number of seconds above 0, not {1!r}.',
            KEY, initial)
    if not _number(factor) or factor < 1:
        raise errors.Refused(
            '{0}.factor must be a number of at least 1, not {1!r}.', KEY,
            factor)
    if not _number(longest) or not 0 < longest <= max_delay:
        raise errors.Refused(
            '{0}.max must be a number of seconds above 0 and at most the '
            'maximum delay ({1}), not {2!r}.', KEY, max_delay, longest)
    return Backoff(initial, factor, longest)


def of_queue(metadata, max_delay):
    """The queue's Backoff, or None: without ``_retry_backoff``, or with
    a value ``check`` refuses (a queue whose metadata was stored before
    it was checked behaves as one without it)."""
    value = (metadata or {}).get(KEY)
    if value is None:
        return None
    try:
        return check(value, max_delay)
    except errors.Refused:
        return None


def seconds(backoff, claim_count):
    """How long a message claimed ``claim_count`` times waits when its
    claim gives it back."""
    exponent = max(0, claim_count - 1)
    try:
        wait = backoff.initial * backoff.factor ** exponent
    except OverflowError:
        return int(math.ceil(backoff.max))
    return int(math.ceil(min(backoff.max, wait)))


def terms(backoff):
    """(initial, factor, max) for a server-side script; (0, 1, 0) for no
    backoff."""
    if backoff is None:
        return 0, 1, 0
    return backoff.initial, backoff.factor, backoff.max
