"""When schedules fire: cron, every, time zones, DST, catch-up.

Every time is given, never read from a clock.
"""

import datetime
import zoneinfo

import testtools

from zaqar_delay.schedules import definition
from zaqar_delay.schedules import ticks

UTC = datetime.timezone.utc


def at(text):
    """Unix seconds of an ISO UTC time ``2026-03-29T01:00``."""
    return int(datetime.datetime.fromisoformat(text).replace(
        tzinfo=UTC).timestamp())


def iso(tick):
    return datetime.datetime.fromtimestamp(tick, UTC).strftime(
        '%Y-%m-%dT%H:%M')


def cron(expression, zone='UTC', catch_up='none', most=100):
    return definition.Schedule('c', expression, None,
                               zoneinfo.ZoneInfo(zone), {}, 60, catch_up,
                               most)


def every(seconds, catch_up='none', most=100):
    return definition.Schedule('e', None, seconds, zoneinfo.ZoneInfo('UTC'),
                               {}, 60, catch_up, most)


def chain(schedule, start, count):
    found, after = [], start
    for _ in range(count):
        after = ticks.next_after(schedule, after)
        found.append(after)
    return found


class NextTest(testtools.TestCase):

    def test_every_fires_at_multiples_of_its_period(self):
        self.assertEqual([12, 14, 16], chain(every(2), 10, 3))
        self.assertEqual([12], chain(every(2), 11, 1))
        self.assertEqual([300], chain(every(300), 0, 1))

    def test_cron_in_utc_and_in_a_zone(self):
        self.assertEqual(['2026-01-15T02:00', '2026-01-16T02:00'], [
            iso(t) for t in chain(cron('0 2 * * *'), at('2026-01-15T01:00'),
                                  2)])
        # 02:00 in Paris is 01:00 UTC in winter, 00:00 in summer.
        self.assertEqual(['2026-01-15T01:00'], [iso(t) for t in chain(
            cron('0 2 * * *', 'Europe/Paris'), at('2026-01-15T00:00'), 1)])
        self.assertEqual(['2026-07-15T00:00'], [iso(t) for t in chain(
            cron('0 2 * * *', 'Europe/Paris'), at('2026-07-14T23:00'), 1)])

    def test_paris_spring_forward_fires_once_at_the_next_valid_time(self):
        # 2026-03-29: 02:00 CET becomes 03:00 CEST; 02:30 does not exist.
        found = chain(cron('30 2 * * *', 'Europe/Paris'),
                      at('2026-03-27T12:00'), 3)
        self.assertEqual(['2026-03-28T01:30',   # 02:30 CET
                          '2026-03-29T01:00',   # 03:00 CEST, once
                          '2026-03-30T00:30'],  # 02:30 CEST
                         [iso(t) for t in found])

    def test_paris_fall_back_fires_once(self):
        # 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:30 happens twice.
        found = chain(cron('30 2 * * *', 'Europe/Paris'),
                      at('2026-10-24T12:00'), 2)
        self.assertEqual(['2026-10-25T00:30',   # the first 02:30 only
                          '2026-10-26T01:30'], [iso(t) for t in found])

    def test_new_york_spring_forward_and_fall_back(self):
        # 2026-03-08: 02:00 EST becomes 03:00 EDT.
        found = chain(cron('30 2 * * *', 'America/New_York'),
                      at('2026-03-07T12:00'), 2)
        self.assertEqual(['2026-03-08T07:00', '2026-03-09T06:30'],
                         [iso(t) for t in found])
        # 2026-11-01: 02:00 EDT becomes 01:00 EST; 01:30 happens twice.
        found = chain(cron('30 1 * * *', 'America/New_York'),
                      at('2026-10-31T12:00'), 2)
        self.assertEqual(['2026-11-01T05:30', '2026-11-02T06:30'],
                         [iso(t) for t in found])

    def test_hourly_ticks_stay_strictly_increasing_across_both_changes(self):
        for zone, start in (('America/New_York', '2026-03-08T04:00'),
                            ('America/New_York', '2026-11-01T03:00'),
                            ('Europe/Paris', '2026-03-28T22:00'),
                            ('Europe/Paris', '2026-10-24T22:00')):
            found = chain(cron('*/30 * * * *', zone), at(start), 12)
            self.assertEqual(sorted(set(found)), found, zone)
            self.assertTrue(all(t % 1800 == 0 for t in found), zone)

    def test_no_look_before_a_pass_saw_the_schedule(self):
        self.assertIsNone(ticks.next_look([every(5)], {}))


class RecentTest(testtools.TestCase):

    def test_recent_agrees_with_next_after(self):
        cases = [(cron('30 2 * * *', 'Europe/Paris'), '2026-03-20T00:00'),
                 (cron('30 2 * * *', 'Europe/Paris'), '2026-10-20T00:00'),
                 (cron('30 1 * * *', 'America/New_York'),
                  '2026-10-28T00:00'),
                 (cron('*/30 * * * *', 'America/New_York'),
                  '2026-11-01T03:00'),
                 (cron('0 9 * * MON', 'Europe/Paris'), '2026-01-01T00:00'),
                 (every(7), '2026-01-01T00:00')]
        for schedule, start in cases:
            forward = chain(schedule, at(start), 10)
            now = forward[-1] + 1
            self.assertEqual(forward, ticks.recent(schedule, at(start), now,
                                                   10), start)
            self.assertEqual(forward[-3:], ticks.recent(schedule, at(start),
                                                        now, 3))
            self.assertEqual(forward[4:], ticks.recent(schedule, forward[3],
                                                       now, 100))

    def test_recent_includes_now_and_excludes_after(self):
        self.assertEqual([10, 12], ticks.recent(every(2), 8, 12, 5))
        self.assertEqual([], ticks.recent(every(2), 12, 13, 5))


class PlanTest(testtools.TestCase):

    def test_a_new_schedule_starts_now(self):
        self.assertEqual(([], 1000), ticks.plan(every(10), None, 1000))

    def test_on_time_every_mode_posts_the_tick(self):
        for mode in definition.CATCH_UP:
            self.assertEqual(([1010], 1010),
                             ticks.plan(every(10, mode), 1000, 1010))
            self.assertEqual(([1010], 1010), ticks.plan(
                every(10, mode), 1000, 1010 + ticks.LATE))
            self.assertEqual(([], 1010), ticks.plan(every(10, mode), 1010,
                                                    1019))

    def test_a_pass_a_few_seconds_late_posts_every_tick_on_time(self):
        # every 2 s, a pass 4 s late: 1004 and 1006 are on time (at
        # most LATE old), whatever the mode; 1002 too with a pass at 1007.
        for mode in definition.CATCH_UP:
            self.assertEqual(([1002, 1004, 1006], 1006),
                             ticks.plan(every(2, mode), 1000, 1006))
            self.assertEqual(([1002, 1004, 1006], 1006),
                             ticks.plan(every(2, mode), 1000, 1007))
        # At 1008, 1002 is missed (6 s old): only 'all' posts it.
        self.assertEqual(([1004, 1006, 1008], 1008),
                         ticks.plan(every(2, 'none'), 1000, 1008))
        self.assertEqual(([1004, 1006, 1008], 1008),
                         ticks.plan(every(2, 'latest'), 1000, 1008))
        self.assertEqual(([1002, 1004, 1006, 1008], 1008),
                         ticks.plan(every(2, 'all'), 1000, 1008))

    def test_ticks_since_a_pass_recorded_late_are_on_time(self):
        # The previous pass recorded at 1006 (it began at most a lease
        # before): at 1010, 1002 is 8 s old but not missed, in any mode.
        for mode in definition.CATCH_UP:
            self.assertEqual(([1002, 1004, 1006, 1008, 1010], 1010),
                             ticks.plan(every(2, mode), 1000, 1010, 1006,
                                        30))
        # Recorded more than LATE before the pass: the dispatchers were
        # down in between, and 1002 was missed.
        self.assertEqual(([1006, 1008, 1010], 1010), ticks.plan(
            every(2, 'none'), 1000, 1010, 1004, 30))

    def test_ticks_on_time_after_a_pass_are_bounded_by_its_lease(self):
        now = 10 ** 9
        due, after = ticks.plan(every(1), 0, now, now - 1, 30)
        self.assertEqual(list(range(now - 1 - 30 - ticks.LATE, now + 1)),
                         due)
        self.assertEqual(now, after)

    def test_ticks_since_the_dispatcher_was_up_are_on_time(self):
        # A dispatcher passing since 1001 finds at 1030 a schedule left
        # at 1000 (its store held the queue up): nothing was missed, in
        # any mode. One up since 1020 knows nothing earlier.
        for mode in definition.CATCH_UP:
            self.assertEqual((list(range(1002, 1031, 2)), 1030), ticks.plan(
                every(2, mode), 1000, 1030, 1004, 10, up=1001))
        self.assertEqual((list(range(1020, 1031, 2)), 1030), ticks.plan(
            every(2, 'none'), 1000, 1030, 1004, 10, up=1020))
        self.assertEqual(([1026, 1028, 1030], 1030), ticks.plan(
            every(2, 'none'), 1000, 1030, 1004, 10, up=1030))

    def test_ticks_on_time_since_the_dispatcher_was_up_are_bounded(self):
        now = 10 ** 9
        due, after = ticks.plan(every(1), 0, now, up=0)
        self.assertEqual(list(range(now - ticks.ON_TIME_MOST + 1, now + 1)),
                         due)
        self.assertEqual(now, after)

    def test_catch_up_after_downtime(self):
        # Down from 60 to 130: ticks 120 and 180... every 60 s.
        after, now = 0, 130
        self.assertEqual(([], 120), ticks.plan(every(60, 'none'), after, now))
        self.assertEqual(([120], 120), ticks.plan(every(60, 'latest'), after,
                                                  now))
        self.assertEqual(([60, 120], 120), ticks.plan(every(60, 'all'),
                                                      after, now))
        self.assertEqual(([120], 120), ticks.plan(every(60, 'all', 1), after,
                                                  now))

    def test_catch_up_all_is_bounded_by_max_catch_up(self):
        due, after = ticks.plan(every(1, 'all', 100), 0, 10 ** 9)
        self.assertEqual(list(range(10 ** 9 - 99, 10 ** 9 + 1)), due)
        self.assertEqual(10 ** 9, after)

    def test_catch_up_all_over_a_dst_change(self):
        schedule = cron('30 2 * * *', 'Europe/Paris', 'all')
        due, after = ticks.plan(schedule, at('2026-03-27T00:00'),
                                at('2026-03-31T00:00'))
        self.assertEqual(['2026-03-27T01:30', '2026-03-28T01:30',
                          '2026-03-29T01:00', '2026-03-30T00:30'],
                         [iso(t) for t in due])
        self.assertEqual(due[-1], after)

    def test_next_look_is_the_earliest_next_tick(self):
        e, f = every(10), every(7)._replace(name='f')
        self.assertEqual(105, ticks.next_look(
            [e, f], {ticks.key(e): 100, ticks.key(f): 100}))
        self.assertEqual(110, ticks.next_look([e, f], {ticks.key(e): 100}))

    def test_a_key_changes_with_when_a_schedule_fires_only(self):
        e = every(10)
        self.assertEqual(ticks.key(e), ticks.key(e._replace(
            body=2, ttl=60, catch_up='all', max_catch_up=1)))
        self.assertNotEqual(ticks.key(e), ticks.key(e._replace(every=11)))
        self.assertNotEqual(ticks.key(e), ticks.key(e._replace(name='f')))
        self.assertTrue(ticks.key(e).startswith('e@'))
