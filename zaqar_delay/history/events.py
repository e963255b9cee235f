"""Message history: what a queue with ``_history_ttl`` keeps, as records.

A queue whose metadata has ``_history_ttl`` (whole seconds, above 0 and
at most ``[delay] max_history_ttl``) keeps, for each message posted while
it is set, the message as posted and every event that changes it, each
for ``_history_ttl`` seconds after it happened. Pure: no I/O; each
driver writes and reads its own records (doc/source/history.rst).
"""

import collections
import datetime

from zaqar_delay import delay
from zaqar_delay import errors

KEY = '_history_ttl'

POSTED = 'posted'                 # ttl, delay, due, dedup, body
CLAIMED = 'claimed'               # claim, count
RELEASED = 'released'             # claim, wait (retry backoff applied)
CLAIM_EXPIRED = 'claim_expired'   # claim, wait
DEAD_LETTERED = 'dead_lettered'   # claim, to (the dead-letter queue)
DELETED = 'deleted'               # claim ('' without one), popped (0/1)
EXPIRED = 'expired'               # count (claims seen; '' unknown)
REPLAYED = 'replayed'             # to, as (the new message's id)
PUSHED = 'pushed'                 # subscriber, status ('' for no answer)
RESCHEDULED = 'rescheduled'       # due (the new due time)
MOVED = 'moved'                   # to, as (the copy's id); the copy's
#                                   posted event has from (this id)

KINDS = (POSTED, CLAIMED, RELEASED, CLAIM_EXPIRED, DEAD_LETTERED, DELETED,
         EXPIRED, REPLAYED, PUSHED, RESCHEDULED, MOVED)

# Fields every event has, then those of its kind.
Event = collections.namedtuple('Event', 'at message_id kind fields')
Event.__doc__ = """One event of a message: when (Zaqar's clock, UNIX
seconds), which message, what kind (one of KINDS), and the kind's fields
(a dict of str; ``body`` of a posted event is the decoded body)."""


def check(metadata, max_history_ttl):
    """Raise Refused for a bad ``_history_ttl``."""
    if KEY not in metadata:
        return
    value = metadata[KEY]
    delay.check_seconds(KEY, value, max_history_ttl,
                        '[delay] max_history_ttl')


def of_queue(metadata, max_history_ttl):
    """Seconds the queue keeps history, 0 for none (absent, or a value
    ``check`` refuses: metadata stored unchecked, as in pools)."""
    value = (metadata or {}).get(KEY)
    if value is None:
        return 0
    try:
        check({KEY: value}, max_history_ttl)
    except errors.Refused:
        return 0
    return value


def parse_time(text):
    """UNIX seconds from ``text``: a number, or an ISO 8601 time (UTC
    unless it names its zone). Raises ValueError."""
    try:
        return float(text)
    except ValueError:
        pass
    when = datetime.datetime.fromisoformat(text.replace('Z', '+00:00'))
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return when.timestamp()


def select(events, since=None, until=None, message_id=None, kind=None):
    """The events in [since, until] (either may be None) of one message
    and one kind (None: any), in the order given."""
    for event in events:
        if since is not None and event.at < since:
            continue
        if until is not None and event.at > until:
            continue
        if message_id and event.message_id != message_id:
            continue
        if kind and event.kind != kind:
            continue
        yield event


def as_json(event):
    """An event as a JSON-ready dict."""
    return dict(event.fields, at=event.at, time=delay.iso(event.at),
                message_id=event.message_id, kind=event.kind)


def as_line(event):
    """An event as one line of the table: time, message, kind, fields
    (a posted event's body left out)."""
    details = ' '.join('%s=%s' % (name, event.fields[name])
                       for name in sorted(event.fields)
                       if name != 'body' and event.fields[name] != '')
    return '%s  %s  %-13s  %s' % (
        delay.iso(event.at), event.message_id, event.kind, details)
