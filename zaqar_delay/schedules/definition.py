"""A queue's schedules: the ``_schedules`` metadata, read and checked.

``_schedules`` is a list of objects, each one schedule::

    {"name": "nightly",            # [a-zA-Z0-9_.-]{1,64}, unique
     "cron": "0 2 * * *",          # five fields; or "every": seconds
     "timezone": "Europe/Paris",   # IANA name; default UTC (cron only)
     "body": {...},                # what each tick posts (JSON)
     "ttl": 3600,                  # of each posted message
     "catch_up": "none",           # none | latest | all
     "max_catch_up": 100}          # with "all": most ticks posted at once

Pure: no I/O. ``parse`` raises Refused (a 400) with a message that
names the schedule and field; ``of_queue`` is what a dispatcher reads
(a value ``parse`` refuses counts as no schedules), and keeps what it
parsed per metadata value, so a dispatcher checks each version of a
queue's ``_schedules`` once rather than on every pass.
"""

import collections
import datetime
import re
import zoneinfo

import cronsim
from oslo_serialization import jsonutils

from zaqar_delay import delay
from zaqar_delay import errors

KEY = '_schedules'
MAX_PER_QUEUE = 20          # schedules in one queue's metadata
MAX_BODY = 16384            # bytes of a schedule's body, as JSON
MAX_CATCH_UP = 1000         # the highest max_catch_up
DEFAULT_TTL = 3600
MIN_TTL = 60                # Zaqar's lowest message ttl
CATCH_UP = ('none', 'latest', 'all')
DEFAULT_CATCH_UP = 'none'
DEFAULT_MAX_CATCH_UP = 100
FIELDS = frozenset(('name', 'cron', 'every', 'timezone', 'body', 'ttl',
                    'catch_up', 'max_catch_up'))
NAME = re.compile(r'^[a-zA-Z0-9_.-]{1,64}$')
# ``of_queue``'s cache: (repr of a ``_schedules`` value, max ttl) ->
# Schedules; emptied when it holds this many values.
CACHED = 4096
_parsed = {}

# One checked schedule. ``cron`` (an expression) or ``every`` (seconds)
# is None; ``zone`` is a ZoneInfo.
Schedule = collections.namedtuple(
    'Schedule', 'name cron every zone body ttl catch_up max_catch_up')


def _fail(schedule, text, *args):
    raise errors.Refused('{0}: schedule {1!r}: ' + text, KEY, schedule,
                         *args)


def _zone(name, label):
    if not isinstance(name, str) or not name:
        _fail(label, 'timezone must be an IANA time zone name such as '
              '"Europe/Paris", not {2!r}.', name)
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        _fail(label, 'unknown timezone {2!r}.', name)


def _cron(expression, label):
    if not isinstance(expression, str) or len(expression.split()) != 5:
        _fail(label, 'cron must be a five-field expression such as '
              '"0 2 * * *" (minute hour day month weekday), not {2!r}.',
              expression)
    try:
        cronsim.CronSim(expression, datetime.datetime(2000, 1, 1))
    except cronsim.CronSimError as exc:
        _fail(label, 'bad cron expression {2!r}: {3}.', expression, exc)
    return expression


def _one(value, max_ttl, index):
    if not isinstance(value, dict):
        _fail(index, 'must be an object like {{"name": "nightly", '
              '"every": 300, "body": {{}}}}, not {2!r}.', value)
    name = value.get('name')
    if not isinstance(name, str) or not NAME.match(name):
        _fail(index, 'name must be 1 to 64 letters, digits, "_", "-" or '
              '".", not {2!r}.', name)
    unknown = set(value) - FIELDS
    if unknown:
        _fail(name, 'unknown fields: {2}.', ', '.join(sorted(unknown)))
    if ('cron' in value) == ('every' in value):
        _fail(name, 'give either "cron" or "every", once.')
    cron = every = None
    if 'cron' in value:
        cron = _cron(value['cron'], name)
    else:
        every = value['every']
        if not delay.whole(every) or every < 1:
            _fail(name, 'every must be a whole number of seconds of at '
                  'least 1, not {2!r}.', every)
    zone = _zone(value.get('timezone', 'UTC'), name)
    body = value.get('body')
    if body is None:
        _fail(name, 'body is missing: give what each tick posts.')
    size = len(jsonutils.dumps(body).encode())
    if size > MAX_BODY:
        _fail(name, 'body is {2} bytes as JSON; at most {3}.', size,
              MAX_BODY)
    ttl = value.get('ttl', min(DEFAULT_TTL, max_ttl))
    if not delay.whole(ttl) or not MIN_TTL <= ttl <= max_ttl:
        _fail(name, 'ttl must be whole seconds from {2} to the maximum '
              'message ttl ({3}), not {4!r}.', MIN_TTL, max_ttl, ttl)
    catch_up = value.get('catch_up', DEFAULT_CATCH_UP)
    if catch_up not in CATCH_UP:
        _fail(name, 'catch_up must be one of {2}, not {3!r}.',
              ', '.join(CATCH_UP), catch_up)
    most = value.get('max_catch_up', DEFAULT_MAX_CATCH_UP)
    if not delay.whole(most) or not 1 <= most <= MAX_CATCH_UP:
        _fail(name, 'max_catch_up must be a whole number from 1 to {2}, '
              'not {3!r}.', MAX_CATCH_UP, most)
    return Schedule(name, cron, every, zone, body, ttl, catch_up, most)


def parse(value, max_ttl):
    """The Schedules of a ``_schedules`` value; Refused if bad."""
    if not isinstance(value, list):
        raise errors.Refused(
            '{0} must be a list of schedules, not {1!r}.', KEY, value)
    if len(value) > MAX_PER_QUEUE:
        raise errors.Refused(
            '{0} has {1} schedules; a queue may have at most {2}.', KEY,
            len(value), MAX_PER_QUEUE)
    found = [_one(item, max_ttl, index) for index, item in enumerate(value)]
    names = [schedule.name for schedule in found]
    for name in names:
        if names.count(name) > 1:
            raise errors.Refused('{0}: two schedules are named {1!r}.',
                                 KEY, name)
    return found


def check(metadata, max_ttl):
    """Raise Refused for a bad ``_schedules``."""
    if KEY in metadata:
        parse(metadata[KEY], max_ttl)


def of_queue(metadata, max_ttl):
    """The queue's Schedules: [] without ``_schedules``, or with a value
    ``parse`` refuses (stored unchecked, as in a pooled deployment)."""
    value = (metadata or {}).get(KEY)
    if value is None:
        return []
    # The repr of JSON-like data tells apart any two values that differ
    # (1, 1.0, True and '1' included), so equal keys parse the same.
    key = (repr(value), max_ttl)
    found = _parsed.get(key)
    if found is None:
        try:
            found = tuple(parse(value, max_ttl))
        except errors.Refused:
            found = ()
        if len(_parsed) >= CACHED:
            _parsed.clear()
        _parsed[key] = found
    return list(found)
