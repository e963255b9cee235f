"""The schedule index every ``*.delay`` driver with schedules must keep
(``driver.schedule_store``, see ``zaqar_delay.push.ticker``).

Mixed in like ``behaviour.DelayBehaviour``. Every time is given to the
store explicitly, from ``t`` (Zaqar's clock, frozen, at the start): no
test waits for a lease to end. ``shows_lease``: a queue's ``next_tick``
is its lease's end while a pass holds it (on swift, the next look the
last pass recorded).
"""

import datetime
import math
import types

from oslo_utils import timeutils

from tests.common import behaviour
from zaqar_delay.push import ticker

PROJECT = 'p.1:sched'   # dots and a colon: every name Zaqar accepts
LEASE = 30


class ScheduleStoreBehaviour(behaviour.Helpers):

    shows_lease = True

    def setUp(self):
        super().setUp()
        self.t = timeutils.utcnow_ts()
        self.store = self.driver.schedule_store
        self.name = 'sched.' + self.queue       # a dot in the name

    def take(self, at, limit=10):
        return self.store.take(self.t + at, limit, LEASE)

    def touch(self, at, queue=None, project=PROJECT, defined=None):
        """Set the schedules at ``defined`` (default: a second before
        ``at``, as the metadata check does) and look at ``at``."""
        defined = at - 1 if defined is None else defined
        self.store.touch(queue or self.name, project, self.t + at,
                         self.t + defined)

    def defined(self, project=PROJECT):
        found = self.store.defined(self.name, project)
        return None if found is None else found - self.t

    def advance(self, afters, next_look, held, project=PROJECT):
        return self.store.advance(
            self.name, project, {k: self.t + v for k, v in afters.items()},
            None if next_look is None else self.t + next_look, self.t + held)

    def afters(self, project=PROJECT):
        """The schedules' afters (not the keys a store may keep beside
        them, which start with ``:``)."""
        return {k: v - self.t for k, v in
                self.store.afters(self.name, project).items()
                if not k.startswith(':')}

    def next_tick(self, project=PROJECT):
        found = self.store.next_tick(self.name, project)
        return None if found is None else found - self.t

    def assert_lease_shown(self, until, project=PROJECT):
        if self.shows_lease:
            self.assertEqual(until, self.next_tick(project))

    def test_a_queue_is_taken_when_due_and_held_for_its_lease(self):
        self.touch(100)
        self.assertEqual([], self.take(99))
        self.assertEqual([(self.name, PROJECT)], self.take(100))
        self.assertEqual([], self.take(100 + LEASE - 1))
        self.assert_lease_shown(100 + LEASE)
        # Its taker died: due again when the lease ends.
        self.assertEqual([(self.name, PROJECT)], self.take(100 + LEASE))

    def test_a_queue_touched_twice_is_taken_once_and_left_alone(self):
        # Its schedules were set twice (a store may keep a look for
        # each): a pass takes it once, and once that pass has recorded
        # its next look no look of it is due at the same time.
        self.touch(50)
        self.touch(100)
        self.assertEqual([(self.name, PROJECT)], self.take(100))
        self.assertTrue(self.advance({'s': 100}, 102, 100 + LEASE))
        self.assertEqual([], self.take(100))
        self.assertEqual(102, self.next_tick())
        self.assertEqual([(self.name, PROJECT)], self.take(102))

    def test_takes_are_earliest_first_and_bounded(self):
        for number in range(5):
            self.touch(100 - number, queue='%s.%d' % (self.name, number))
        self.assertEqual(self.t + 96, self.store.next_due())
        taken = self.take(100, limit=3)
        self.assertEqual(['%s.%d' % (self.name, n) for n in (4, 3, 2)],
                         [queue for queue, _ in taken])
        self.assertEqual(2, len(self.take(100)))
        self.assertEqual([], self.take(100))

    def test_advance_records_afters_and_the_next_look(self):
        self.touch(100)
        self.take(100)
        self.assertTrue(self.advance({'a.b': 100, 'c': 98}, 102,
                                     100 + LEASE))
        self.assertEqual({'a.b': 100, 'c': 98}, self.afters())
        self.assertEqual(102, self.next_tick())
        self.assertEqual([(self.name, PROJECT, self.t + 102)],
                         [row for row in self.store.listed(100)
                          if row[0] == self.name])
        self.assertEqual([(self.name, PROJECT)], self.take(102))
        # A schedule removed is forgotten; no schedule left: the queue.
        self.assertTrue(self.advance({'c': 102}, 104, 102 + LEASE))
        self.assertEqual({'c': 102}, self.afters())
        self.take(104)
        self.assertTrue(self.advance({}, None, 104 + LEASE))
        self.assertIsNone(self.next_tick())
        self.assertEqual({}, self.afters())
        self.assertEqual([], self.take(10 ** 6))

    def test_a_pass_that_outlived_its_lease_moves_nothing_back(self):
        # A takes the queue, stalls past its lease; B takes it, posts
        # the ticks to 140 and records them; then A records 120. A tick
        # recorded must stay recorded: a later pass would post 122 to
        # 140 again, a second message once the first one was consumed.
        self.touch(100)
        self.take(100)                                  # A, until 130
        self.assertEqual([(self.name, PROJECT)], self.take(130))    # B
        self.assertTrue(self.advance({'s': 140}, 142, 130 + LEASE))
        self.assertFalse(self.advance({'s': 120}, 122, 100 + LEASE))
        self.assertEqual({'s': 140}, self.afters())
        self.assertEqual(142, self.next_tick())
        self.assertEqual([], self.take(141))
        self.assertEqual([(self.name, PROJECT)], self.take(142))

    def test_a_late_pass_forgets_nothing_another_pass_recorded(self):
        self.touch(100)
        self.take(100)
        self.take(130)
        self.assertFalse(self.advance({}, None, 100 + LEASE))
        self.assert_lease_shown(130 + LEASE)
        self.assertTrue(self.advance({'s': 140}, 142, 130 + LEASE))
        self.assertFalse(self.advance({'t': 1}, None, 100 + LEASE))
        self.assertEqual(140, self.afters()['s'])
        self.assertEqual(142, self.next_tick())

    def test_a_look_asked_for_during_a_pass_is_kept(self):
        # The metadata changed while a pass held the queue: the earlier
        # look it asked for is kept, and the pass's afters are recorded.
        self.touch(100)
        self.take(100)
        self.touch(105)
        self.advance({'s': 100}, 160, 100 + LEASE)
        self.assertEqual({'s': 100}, self.afters())
        self.assertEqual([], self.take(104))
        self.assertEqual([(self.name, PROJECT)], self.take(105))

    def test_projects_are_apart(self):
        self.touch(100)
        self.touch(100, project='other')
        self.assertEqual(2, len(self.take(100)))
        self.advance({'s': 100}, 200, 100 + LEASE)
        self.assertEqual({}, self.afters('other'))
        self.assertEqual(200, self.next_tick())
        self.assert_lease_shown(100 + LEASE, 'other')

    def test_touch_records_when_the_schedules_were_set(self):
        self.assertIsNone(self.defined())
        self.touch(100, defined=99)
        self.assertEqual(99, self.defined())
        self.assertIsNone(self.defined('other'))
        self.touch(200, defined=150)
        self.assertEqual(150, self.defined())

    def test_a_set_during_a_pass_is_kept(self):
        # The pass read the afters before the schedules were set again:
        # what it records (the time it read back, as the ticker does)
        # leaves the newer time.
        self.touch(100, defined=99)
        self.take(100)
        read = self.store.afters(self.name, PROJECT)
        self.touch(105, defined=104)
        self.store.advance(self.name, PROJECT, dict(read, s=self.t + 100),
                           self.t + 160, self.t + 100 + LEASE)
        self.assertEqual(104, self.defined())
        self.assertEqual([(self.name, PROJECT)], self.take(105))
        read = self.store.afters(self.name, PROJECT)
        self.assertTrue(self.store.advance(
            self.name, PROJECT, dict(read, s=self.t + 105), self.t + 160,
            self.t + 105 + LEASE))
        self.assertEqual(104, self.defined())

    # A pass (``ticker.Ticker``) over the store, on its clock ``self.at``.

    def ticking(self, every, set_at):
        """A queue with one ``every`` schedule set at ``t + set_at``,
        and a Ticker on ``self.at`` (seconds from ``t``, made a multiple
        of ``every``)."""
        self.t -= self.t % every
        self.queues.create(self.name, project=PROJECT)
        self.queues.set_metadata(self.name, {'_schedules': [
            {'name': 's', 'every': every, 'body': 1}]}, project=PROJECT)
        self.touch(int(set_at) + 1, defined=math.ceil(set_at))
        self.at = set_at
        return ticker.Ticker(self.driver, self.queues, LEASE, 10,
                             clock=lambda: self.t + self.at)

    def posted(self):
        """The ticks posted, from ``t``, in order."""
        pages = self.messages.list(self.name, project=PROJECT, echo=True,
                                   client_uuid=behaviour.OTHER_CLIENT,
                                   limit=20)
        return sorted(
            int(datetime.datetime.strptime(
                m['body']['tick'], '%Y-%m-%dT%H:%M:%SZ').replace(
                    tzinfo=datetime.timezone.utc).timestamp()) - self.t
            for m in next(pages))

    def pass_with_a_slow_post(self, ticker_, at, before=None, after=None):
        """Run one pass of ``ticker_`` at ``at`` whose posts call
        ``before`` and ``after`` around the store's post (the time a
        slow store takes), then give it the store's post back."""
        post = ticker_.messages.post

        def slow(*args, **kwargs):
            if before:
                before()
            post(*args, **kwargs)
            if after:
                after()

        ticker_.messages = types.SimpleNamespace(post=slow)
        self.at = at
        ticker_.run_once()
        ticker_.messages = self.messages

    def test_a_schedule_starts_when_it_was_set(self):
        # Set at 100.5, first seen by a pass at 103.
        one = self.ticking(1, 100.5)
        self.at = 103
        one.run_once()
        self.assertEqual([101, 102, 103], self.posted())

    def test_ticks_due_during_a_slow_pass_are_posted(self):
        # A pass at 102 whose post is acknowledged at 112: the next pass,
        # at 113, finds 104 to 112 due, older than LATE but on time.
        one = self.ticking(2, 99.5)
        self.at = 100
        one.run_once()

        def acknowledged_at_112():
            self.at = 112

        self.pass_with_a_slow_post(one, 102, after=acknowledged_at_112)
        self.at = 113
        one.run_once()
        self.assertEqual(list(range(100, 113, 2)), self.posted())

    def test_a_store_slower_than_the_lease_loses_no_tick(self):
        # Under load every request can take seconds: a pass at 102 is
        # still posting when its lease (10 s) ends, and another
        # dispatcher, passing since 100, takes the queue at 115. It
        # finds 104 to 114 due more than LATE after any record: held
        # up, not missed. The slow pass records nothing of its own.
        one = self.ticking(2, 99.5)
        one.lease = 10
        two = ticker.Ticker(self.driver, self.queues, 10, 10,
                            clock=lambda: self.t + self.at)
        self.at = 100
        one.run_once()
        self.assertEqual(0, two.run_once())     # passing since 100

        def two_takes_the_queue_at_115():
            self.at = 115
            self.assertEqual(1, two.run_once())

        self.pass_with_a_slow_post(one, 102,
                                   before=two_takes_the_queue_at_115)
        self.at = 116
        one.run_once()
        self.assertEqual(list(range(100, 117, 2)), self.posted())
