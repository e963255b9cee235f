"""The schedule index every ``*.delay`` driver with schedules must keep
(``driver.schedule_store``, see ``zaqar_delay.schedules.ticker``).

Mixed in like ``behaviour.DelayBehaviour``. Every time is given to the
store explicitly: no test waits for a lease to end.
"""

from tests.common import behaviour

PROJECT = 'p.1:sched'   # dots and a colon: every name Zaqar accepts
LEASE = 30


class ScheduleStoreBehaviour(behaviour.Helpers):

    def setUp(self):
        super().setUp()
        self.store = self.driver.schedule_store
        self.name = 'sched.' + self.queue       # a dot in the name

    def take(self, now, limit=10):
        return self.store.take(now, limit, LEASE)

    def test_a_queue_is_taken_when_due_and_held_for_its_lease(self):
        self.store.touch(self.name, PROJECT, 100)
        self.assertEqual([], self.take(99))
        self.assertEqual([(self.name, PROJECT)], self.take(100))
        self.assertEqual([], self.take(100 + LEASE - 1))
        self.assertEqual(100 + LEASE, self.store.next_tick(self.name,
                                                           PROJECT))
        # Its taker died: due again when the lease ends.
        self.assertEqual([(self.name, PROJECT)], self.take(100 + LEASE))

    def test_takes_are_earliest_first_and_bounded(self):
        for number in range(5):
            self.store.touch('%s.%d' % (self.name, number), PROJECT,
                             100 - number)
        self.assertEqual(96, self.store.next_due())
        taken = self.take(100, limit=3)
        self.assertEqual(['%s.%d' % (self.name, n) for n in (4, 3, 2)],
                         [queue for queue, _ in taken])
        self.assertEqual(2, len(self.take(100)))
        self.assertEqual([], self.take(100))

    def test_advance_records_afters_and_the_next_look(self):
        self.store.touch(self.name, PROJECT, 100)
        self.take(100)
        self.assertTrue(self.store.advance(
            self.name, PROJECT, {'a.b': 100, 'c': 98}, 102, 100 + LEASE))
        self.assertEqual({'a.b': 100, 'c': 98},
                         self.store.afters(self.name, PROJECT))
        self.assertEqual(102, self.store.next_tick(self.name, PROJECT))
        self.assertEqual([(self.name, PROJECT, 102)],
                         [row for row in self.store.listed(100)
                          if row[0] == self.name])
        self.assertEqual([(self.name, PROJECT)], self.take(102))
        # A schedule removed is forgotten; no schedule left: the queue.
        self.assertTrue(self.store.advance(
            self.name, PROJECT, {'c': 102}, 104, 102 + LEASE))
        self.assertEqual({'c': 102}, self.store.afters(self.name, PROJECT))
        self.take(104)
        self.assertTrue(self.store.advance(self.name, PROJECT, {}, None,
                                           104 + LEASE))
        self.assertIsNone(self.store.next_tick(self.name, PROJECT))
        self.assertEqual({}, self.store.afters(self.name, PROJECT))
        self.assertEqual([], self.take(10 ** 9))

    def test_a_pass_that_outlived_its_lease_moves_nothing_back(self):
        # A takes the queue, stalls past its lease; B takes it, posts
        # the ticks to 140 and records them; then A records 120. A tick
        # recorded must stay recorded: a later pass would post 122 to
        # 140 again, a second message once the first one was consumed.
        self.store.touch(self.name, PROJECT, 100)
        self.take(100)                                  # A, until 130
        self.assertEqual([(self.name, PROJECT)], self.take(130))    # B
        self.assertTrue(self.store.advance(self.name, PROJECT,
                                           {'s': 140}, 142, 130 + LEASE))
        self.assertFalse(self.store.advance(self.name, PROJECT,
                                            {'s': 120}, 122, 100 + LEASE))
        self.assertEqual({'s': 140}, self.store.afters(self.name, PROJECT))
        self.assertEqual(142, self.store.next_tick(self.name, PROJECT))
        self.assertEqual([], self.take(141))

    def test_a_late_pass_forgets_nothing_another_pass_recorded(self):
        self.store.touch(self.name, PROJECT, 100)
        self.take(100)
        self.take(130)
        self.assertFalse(self.store.advance(self.name, PROJECT, {}, None,
                                            100 + LEASE))
        self.assertEqual(130 + LEASE,
                         self.store.next_tick(self.name, PROJECT))
        self.store.advance(self.name, PROJECT, {'s': 140}, 142, 130 + LEASE)
        self.assertFalse(self.store.advance(self.name, PROJECT, {'t': 1},
                                            None, 100 + LEASE))
        self.assertEqual({'s': 140, 't': 1},
                         self.store.afters(self.name, PROJECT))
        self.assertEqual(142, self.store.next_tick(self.name, PROJECT))

    def test_a_look_asked_for_during_a_pass_is_kept(self):
        # The metadata changed while a pass held the queue: the earlier
        # look it asked for is kept, and the pass's afters are recorded.
        self.store.touch(self.name, PROJECT, 100)
        self.take(100)
        self.store.touch(self.name, PROJECT, 105)
        self.assertFalse(self.store.advance(self.name, PROJECT,
                                            {'s': 100}, 160, 100 + LEASE))
        self.assertEqual({'s': 100}, self.store.afters(self.name, PROJECT))
        self.assertEqual(105, self.store.next_tick(self.name, PROJECT))
        self.assertEqual([(self.name, PROJECT)], self.take(105))

    def test_projects_are_apart(self):
        self.store.touch(self.name, PROJECT, 100)
        self.store.touch(self.name, 'other', 100)
        self.take(100)
        self.store.advance(self.name, PROJECT, {'s': 100}, 200, 100 + LEASE)
        self.assertEqual({}, self.store.afters(self.name, 'other'))
        self.assertEqual(100 + LEASE, self.store.next_tick(self.name,
                                                           'other'))
