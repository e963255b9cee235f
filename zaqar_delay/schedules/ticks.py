"""When a schedule fires, and which ticks one pass posts. Pure: no I/O.

Times are whole unix seconds (UTC); a schedule's ticks are strictly
increasing. A schedule's state is one number, ``after``: every tick up
to it was handled (posted, or skipped as ``catch_up`` says). ``plan``
gives the ticks a pass posts and the new ``after``, kept under the
schedule's ``key``, which a change of when it fires makes new. Beside
the afters, a queue's state holds ``PASSED``: when the last pass
recorded them. How ``every`` and ``cron`` fire (time zones, daylight
saving) and when a changed schedule starts: doc/source/schedules.rst.
"""

import datetime
import hashlib

import cronsim

# A tick found later than this (seconds) was missed: the dispatchers
# were down. ``catch_up: none`` skips it.
LATE = 5
# The most ticks of one schedule a pass posts as on time (a dispatcher up
# for long that finds a schedule far behind: its store did not answer).
ON_TIME_MOST = 1000
# The key, beside the schedules' names (which have no ``:``), of when a
# pass recorded a queue's afters.
PASSED = ':passed'
# The key of when the queue's schedules were last set, where a store
# keeps it beside the afters.
DEFINED = ':defined'


def key(schedule):
    """The key of a schedule's after: its name and a digest of when it
    fires (a body, ttl or catch_up change keeps it)."""
    timing = repr((schedule.cron, schedule.every, str(schedule.zone)))
    return '%s@%s' % (schedule.name,
                      hashlib.sha256(timing.encode()).hexdigest()[:12])


def _local(timestamp, zone):
    return datetime.datetime.fromtimestamp(timestamp, zone)


def next_after(schedule, after):
    """The first tick later than ``after``; None for a cron expression
    that never matches again."""
    if schedule.every:
        return (after // schedule.every + 1) * schedule.every
    try:
        for found in cronsim.CronSim(schedule.cron,
                                     _local(after, schedule.zone)):
            tick = int(found.timestamp())
            if tick > after:
                return tick
    except StopIteration:
        return None
    return None


def recent(schedule, after, now, limit):
    """The latest ``limit`` ticks in ``(after, now]``, earliest first.
    Costs O(limit) whatever the distance from ``after`` to ``now``."""
    if schedule.every:
        newest = now // schedule.every * schedule.every
        found = [tick for tick in range(
            newest, newest - limit * schedule.every, -schedule.every)
            if tick > after]
        return found[::-1]
    found = []
    try:
        for match in cronsim.CronSim(schedule.cron,
                                     _local(now + 1, schedule.zone),
                                     reverse=True):
            tick = int(match.timestamp())
            if tick <= after or len(found) == limit:
                break
            if tick <= now and (not found or tick < found[-1]):
                found.append(tick)
    except StopIteration:
        pass
    return found[::-1]


def plan(schedule, after, now, passed=None, lease=0, up=None):
    """(ticks to post, new ``after``) for a pass at ``now``.

    ``after`` None: the schedule is new, and starts now (nothing before
    it is posted). Otherwise the ticks in ``(after, now]`` are due. Those
    on time are posted in every mode: a tick at most ``LATE`` seconds
    old; every tick since the previous pass could have begun when that
    pass recorded its afters (at ``passed``, its lease ``lease`` seconds
    long) at most ``LATE`` seconds before ``now`` (a slow pass holds the
    queue while ticks fall due); and every tick since ``up``, when the
    dispatcher making this pass began passing: it was up since, so a
    later tick found late was held up (a slow or dead pass's lease, a
    slow store), not missed, however late. The other ticks were missed
    (every dispatcher was down): ``none`` skips them, ``latest`` posts
    the most recent tick only when none is on time, and ``all`` posts
    the latest ``max_catch_up`` ticks, missed or not. At most
    ``ON_TIME_MOST`` ticks are posted at once.
    """
    if after is None:
        return [], now
    if schedule.catch_up == 'all':
        due = recent(schedule, after, now, schedule.max_catch_up)
    else:
        start = now - LATE      # the earliest tick on time
        if passed is not None and now - passed <= LATE:
            start = min(now, passed) - lease - LATE
        if up is not None:
            start = min(start, up)
        since = max(after, start - 1)
        due = recent(schedule, since, now, min(now - since, ON_TIME_MOST))
        if not due and schedule.catch_up == 'latest':
            due = recent(schedule, after, now, 1)
    if due:
        return due, due[-1]
    newest = recent(schedule, after, now, 1)
    return [], newest[-1] if newest else after


def next_look(schedules, afters):
    """When a pass should look at a queue again: the earliest next tick
    of its schedules (``afters``: ``key`` -> after); None if none
    fires."""
    found = [next_after(s, afters[key(s)]) for s in schedules
             if afters.get(key(s)) is not None]
    found = [tick for tick in found if tick is not None]
    return min(found) if found else None
