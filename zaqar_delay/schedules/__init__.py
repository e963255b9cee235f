"""Recurring messages: a queue that posts to itself on a schedule.

``definition`` reads and checks a queue's ``_schedules`` metadata,
``ticks`` works out when a schedule fires and which ticks a pass posts;
both are pure (no I/O); the stores import them. The pass that posts
the ticks is a dispatcher's (``zaqar_delay.push.ticker``). See
``doc/source/schedules.rst``.
"""

from zaqar_delay import delay


def next_tick(data_driver, queue, project):
    """``{'next_tick': ISO time}`` for a queue's stats: the earliest next
    tick of its schedules (while a dispatcher holds them, the end of its
    lease); {} without schedules or a schedule index."""
    if getattr(data_driver, 'schedule_class', None) is None:
        return {}
    tick = data_driver.schedule_store.next_tick(queue, project)
    return {} if tick is None else {'next_tick': delay.iso(tick)}
