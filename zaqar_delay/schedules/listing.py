"""What ``zaqar-delay-manage schedules [QUEUE]`` prints: one JSON line
per schedule, with its last and next tick.

``last_tick`` is the latest tick handled (posted, or skipped as its
``catch_up`` says), ``next_tick`` the next one; both ISO 8601 UTC, or
None (a schedule no pass has seen yet, a cron expression that never
matches again).
"""

from oslo_serialization import jsonutils
from zaqar.storage import errors

from zaqar_delay import delay
from zaqar_delay.schedules import definition
from zaqar_delay.schedules import ticks


def _iso(tick):
    return None if tick is None else delay.iso(tick)


def rows(ticker, queue, project):
    """A dict per schedule of one queue (none if it has none)."""
    try:
        metadata = ticker.queues.get_metadata(queue, project)
    except errors.QueueDoesNotExist:
        metadata = {}
    afters = ticker.store.afters(queue, project)
    found = []
    for schedule in definition.of_queue(metadata, ticker.max_ttl):
        after = afters.get(ticks.key(schedule))
        last = next_tick = None
        if after is not None:
            handled = ticks.recent(schedule, -1, after, 1)
            last = handled[-1] if handled else None
            next_tick = ticks.next_after(schedule, after)
        found.append({'project': project, 'queue': queue,
                      'schedule': schedule.name,
                      'every': schedule.every, 'cron': schedule.cron,
                      'timezone': str(schedule.zone),
                      'catch_up': schedule.catch_up,
                      'last_tick': _iso(last), 'next_tick': _iso(next_tick)})
    return found


def write(ticker, out, queue=None, project=None, limit=1000):
    """Write the schedules of ``queue`` (or of every queue in the index,
    up to ``limit`` queues, earliest next look first); return how many
    were written."""
    if queue is not None:
        queues = [(queue, project)]
    else:
        queues = [(name, owner) for name, owner, _ in
                  ticker.store.listed(limit)]
    count = 0
    for name, owner in queues:
        for row in rows(ticker, name, owner):
            out.write(jsonutils.dumps(row, sort_keys=True) + '\n')
            count += 1
    return count
