"""Pure helpers for delays: the delay to apply and the checks on it.

No I/O here; every storage driver uses these the same way.
"""

import datetime
import math

from oslo_serialization import jsonutils

from zaqar_delay import errors

QUEUE_DEFAULT_KEY = '_default_message_delay'
# A posted message's due time, unix seconds, when its transport gave one
# (``wsgi.delay``); it wins over ``delay``.
DUE = 'due'
# What ``[delay] ttl_shorter_than_delay`` (opts.py) does with a message
# whose ttl ends before its delay: refuse it, or store it.
REJECT = 'reject'
ACCEPT = 'accept'


def whole(value):
    """True for a whole number (an ``int`` that is not a ``bool``), the
    form every number of seconds in metadata and messages takes."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_seconds(key, value, maximum, maximum_is):
    """Raise Refused unless ``value`` (of metadata ``key``) is a whole
    number of seconds above 0 and at most ``maximum`` (what
    ``maximum_is``, for the message)."""
    if not whole(value) or not 0 < value <= maximum:
        raise errors.Refused(
            '{0} must be a whole number of seconds above 0 and at most '
            '{1} ({2}), not {3!r}.', key, maximum, maximum_is, value)


def check_queue_default(metadata, max_delay):
    """Raise Refused unless the queue's ``_default_message_delay``,
    when set and not null, is a whole number of seconds from 0 to
    ``max_delay`` (``true`` and ``false`` are not numbers here)."""
    value = (metadata or {}).get(QUEUE_DEFAULT_KEY)
    if value is not None and (not whole(value)
                              or not 0 <= value <= max_delay):
        raise errors.Refused(
            '{0} must be a whole number of seconds from 0 to {1} '
            '([transport] max_message_delay), not {2}.',
            QUEUE_DEFAULT_KEY, max_delay, jsonutils.dumps(value))


def queue_default(metadata):
    """Return a queue's default delay in seconds (0 when it has none)."""
    value = (metadata or {}).get(QUEUE_DEFAULT_KEY) or 0
    if not whole(value) or value < 0:
        return 0
    return value


def waits_from(messages, waits, posted):
    """``waits`` (from ``prepare``) with the wait of each message that
    carries ``due`` counted from ``posted`` (the post's time, to the
    ms) instead: due exactly then (to the ms, up), or at once."""
    return [max(0.0, due_at(message[DUE], 0) - posted) if DUE in message
            else wait for message, wait in zip(messages, waits)]


def resolve(message, default):
    """Return the delay of one message: its own, else the queue's."""
    return message.get('delay', default)


def check(message, delay, max_delay, policy):
    """Validate one message's delay; raise Refused when it is refused.

    :param message: the posted message (``ttl`` is read)
    :param delay: the delay that would apply, in seconds
    :param max_delay: ``[transport] max_message_delay``
    :param policy: ``[delay] ttl_shorter_than_delay``
    """
    if not whole(delay):
        raise errors.Refused(
            'The delay of a message must be an integer number of seconds, '
            'not {0!r}.', delay)
    if not 0 <= delay <= max_delay:
        raise errors.Refused(
            'The delay of a message must be between 0 and {0} seconds; '
            'got {1}.', max_delay, delay)
    if delay and policy == REJECT and message['ttl'] <= delay:
        raise errors.Refused(
            'A message with ttl {0} would expire before its delay of {1} '
            'seconds ends and could never be delivered; post it with a '
            'ttl longer than its delay.', message['ttl'], delay)


def prepare(messages, default, max_delay, policy, now=None):
    """Return the delay of each message, after checking each one. A
    message that carries ``due`` (unix seconds, set by a transport that
    accepts due times) waits until then from ``now`` (``check_due``: a
    float of seconds)."""
    delays = []
    for message in messages:
        if DUE in message:
            delays.append(check_due(message, message[DUE], now, max_delay,
                                    policy))
            continue
        delay = resolve(message, default)
        check(message, delay, max_delay, policy)
        delays.append(delay)
    return delays


def with_age(message):
    """``message`` with its ``age`` never below 0.

    An age is this host's clock minus the posting time that another host
    (or, for mongodb, the client library's wall clock) wrote: a host whose
    clock is behind would otherwise report a message as not yet posted.
    """
    message['age'] = max(0, message['age'])
    return message


def parse_time(value, key='due'):
    """Unix seconds of an ISO 8601 time that names its zone (``Z`` or an
    offset); Refused for anything else."""
    when = None
    if isinstance(value, str):
        try:
            when = datetime.datetime.fromisoformat(
                value.replace('z', 'Z').replace('Z', '+00:00'))
        except ValueError:
            pass
    if when is None or when.tzinfo is None:
        raise errors.Refused(
            'The {0} of a message must be an ISO 8601 time with its zone '
            '(2026-01-31T12:00:00Z or 2026-01-31T13:00:00+01:00), not '
            '{1!r}.', key, value)
    return when.timestamp()


def check_due(message, due, now, max_delay, policy):
    """Check the due time ``due`` (unix seconds) asked for ``message``
    at ``now``, as ``check`` does a delay: at most ``max_delay`` seconds
    ahead, and before the message's ttl ends (``policy``); a time past is
    due now. Returns the seconds it waits (a float, 0 for now)."""
    wait = max(0.0, due - now)
    if wait > max_delay:
        raise errors.Refused(
            'The due time of a message must be at most {0} seconds ahead '
            '(max_message_delay); {1} is {2:.3f} s ahead.', max_delay,
            iso_ms(due), wait)
    if wait and policy == REJECT and message['ttl'] <= wait:
        raise errors.Refused(
            'A message with ttl {0} would expire before its due time {1} '
            'and could never be delivered; post it with a ttl longer than '
            'its delay.', message['ttl'], iso_ms(due))
    return wait


def iso(timestamp):
    """A unix time as Zaqar writes times: ``YYYY-MM-DDTHH:MM:SSZ``."""
    return datetime.datetime.fromtimestamp(
        timestamp, tz=datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')


def floor_ms(now):
    """``now`` (unix seconds) down to the millisecond: the time a due
    time is judged by (due when ``due <= floor_ms(now)``)."""
    return math.floor(now * 1000) / 1000


def due_at(now, seconds):
    """The due time of a message posted (or given back) at ``now`` that
    waits ``seconds``: unix seconds, up to the next millisecond, so
    never before ``now + seconds``."""
    return (math.ceil(now * 1000) + round(seconds * 1000)) / 1000


def due_asked(now, seconds=None, due=None):
    """The due time a reschedule or a move asks for at ``now``:
    ``seconds`` from now, or ``due`` (up to the ms); a time past, or
    neither, is now."""
    if seconds is not None:
        return due_at(now, seconds)
    return max(due_at(due, 0), now) if due is not None else now


def upstream_due(due):
    """A due time in whole seconds, for upstream's fields (``d``): the
    second it ends in, so an upstream driver never delivers it early."""
    return math.ceil(due)


def iso_ms(timestamp):
    """A unix time to the millisecond: ``YYYY-MM-DDTHH:MM:SS.sssZ``."""
    ms = round(timestamp * 1000)
    when = datetime.datetime.fromtimestamp(ms // 1000,
                                           tz=datetime.timezone.utc)
    return '%s.%03dZ' % (when.strftime('%Y-%m-%dT%H:%M:%S'), ms % 1000)


def stats(total, claimed, delayed, next_due=None):
    """Queue message counts that always add up.

    ``claimed`` and ``delayed`` are clamped so that ``free`` (what a claim
    can take now) is never negative; ``next_due`` (unix time of the
    earliest delayed message) is given as ``next_due``, to the
    millisecond, when something is delayed.
    """
    claimed = min(claimed, total)
    delayed = min(delayed, total - claimed)
    counts = {'total': total, 'claimed': claimed, 'delayed': delayed,
              'free': total - claimed - delayed}
    if delayed and next_due is not None:
        counts['next_due'] = iso_ms(next_due)
    return counts
