"""The schedule index of a ``redis.delay`` store (``zaqar_delay.schedules``).

=====================================  =============  ====================
Key                                    Type           Holds
=====================================  =============  ====================
``zaqar_delay.schedules``              zset           ``<queue>/<project>``
                                                      scored by its next
                                                      look (or lease end)
``<project>.<queue>.delay.schedules``  hash           schedule key
                                                      (``ticks.key``) ->
                                                      ``after`` (seconds);
                                                      ``:passed``,
                                                      ``:defined``
=====================================  =============  ====================

A pass takes due members with ``schedule_take.lua`` (O(log n + limit)),
so finding due schedules never scans the queues, and records what it
did with ``schedule_advance.lua`` (afters only move forward; the next
look is written only while the pass still holds the queue).
"""

from zaqar.storage.redis import utils

from zaqar_delay import pending
from zaqar_delay.schedules import ticks
from zaqar_delay.storage import base
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import zsets


def member(queue, project):
    """``<queue>/<project>``: queue names have no ``/``; the project id
    as Zaqar gave it (last, it needs no encoding)."""
    return pending.SEP.join((queue, keys.unscoped_project(project) or ''))


def parse(found):
    found = found.decode() if isinstance(found, bytes) else found
    queue, project = found.split(pending.SEP, 1)
    return queue, project or None


class Schedules(base.ScheduleStore):
    """What the schedule pass and the queue stages need of the store."""

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def touch(self, queue, project, at, defined):
        """Look at the queue's schedules at ``at``; they were set at
        ``defined``: one script call."""
        self.driver.scripts['schedule_touch'](
            keys=[keys.SCHEDULES, keys.schedule_afters(queue, project)],
            args=[member(queue, project), at, ticks.DEFINED, int(defined)])

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def defined(self, queue, project):
        """When the queue's schedules were last set (``touch``), or
        None."""
        found = self.driver.connection.hget(
            keys.schedule_afters(queue, project), ticks.DEFINED)
        return None if found is None else int(found)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def take(self, now, limit, lease):
        """Up to ``limit`` due queues, held for ``lease`` seconds."""
        return [parse(found) for found in self.driver.scripts['schedule_take'](
            keys=[keys.SCHEDULES], args=[now, limit, now + lease])]

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def afters(self, queue, project):
        found = self.driver.connection.hgetall(
            keys.schedule_afters(queue, project))
        return {name.decode(): int(after) for name, after in found.items()}

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def afters_of(self, taken):
        """``afters`` of each (queue, project): one round trip."""
        with self.driver.connection.pipeline(transaction=False) as pipe:
            for queue, project in taken:
                pipe.hgetall(keys.schedule_afters(queue, project))
            return [{name.decode(): int(after)
                     for name, after in found.items()}
                    for found in pipe.execute()]

    def advance(self, queue, project, afters, next_look, held):
        """``advance_all`` of one queue: True if the next look was
        written."""
        return self.advance_all([(queue, project, afters, next_look,
                                  held)])[0]

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def advance_all(self, records):
        """``_advance`` of each (queue, project, afters, next look, held):
        one round trip of one script call each."""
        return [bool(found) for found in self.driver.scripts.batch(
            'schedule_advance', [self._advance_one(*record)
                                 for record in records])]

    @staticmethod
    def _advance_one(queue, project, afters, next_look, held):
        """(keys, args) of ``schedule_advance.lua``: move each schedule's
        after forward to ``afters`` (never back; others are forgotten);
        look again at ``next_look`` (None: forget the queue) if the queue
        is still held until ``held`` (the lease end it was taken with);
        it answers 1 if the next look was written."""
        args = [member(queue, project), held,
                '' if next_look is None else next_look]
        for name, after in sorted(afters.items()):
            args += [name, after]
        return [keys.SCHEDULES, keys.schedule_afters(queue, project)], args

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def next_due(self):
        return zsets.earliest(self.driver.connection, keys.SCHEDULES)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def next_tick(self, queue, project):
        found = self.driver.connection.zscore(keys.SCHEDULES,
                                              member(queue, project))
        return int(found) if found is not None else None

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def listed(self, limit):
        """Up to ``limit`` (queue, project, next look), earliest first."""
        return [parse(found) + (int(score),) for found, score in
                self.driver.connection.zrange(keys.SCHEDULES, 0, limit - 1,
                                              withscores=True)]
