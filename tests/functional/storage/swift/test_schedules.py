"""The schedule index suite on ``swift.delay``."""

import fixtures

from tests.common import schedule_store
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import schedules


class SwiftScheduleStoreTest(schedule_store.ScheduleStoreBehaviour,
                             swift_store.DelayTestBase):
    shows_lease = False     # next_tick: the look the last pass recorded

    def setUp(self):
        super().setUp()
        # The index is the store's, not a queue's: start it empty.
        client = self.driver.connection
        for container in (schedules.LOOKS, schedules.STATE,
                          schedules.LEASES, schedules.DEFINED):
            with responses.tolerating(responses.NOT_FOUND):
                for obj in client.get_container(container,
                                                full_listing=True)[1]:
                    client.delete_object(container, obj['name'])

    def test_a_queue_listed_twice_is_taken_once(self):
        # Each touch writes an entry. Two takes of one queue in one pass,
        # run at once, raced for the same lease: the loser left its
        # entry, due again at once (1 run in 15 under load).
        self.touch(50)
        self.touch(100)
        took = []
        take = schedules.locks.take

        def counted(client, container, name, *args):
            took.append(name)
            return take(client, container, name, *args)

        self.useFixture(fixtures.MockPatchObject(schedules.locks, 'take',
                                                 counted))
        self.assertEqual([(self.name, schedule_store.PROJECT)],
                         self.take(100))
        self.assertEqual([schedules.member(self.name,
                                           schedule_store.PROJECT)], took)
        self.assertEqual([], self.store._names(
            schedules.idx.until(self.t + 100), 10))

    def test_a_stale_listing_takes_nothing_and_leaves_the_lease(self):
        # Swift updates a container's listing after the object: a pass
        # can list an entry another pass moved already. It takes
        # nothing there and leaves the queue's lease free.
        self.touch(100)
        (stale,) = self.store._names(schedules.idx.until(self.t + 100), 10)
        self.assertEqual([(self.name, schedule_store.PROJECT)],
                         self.take(100))
        listed = self.store._names
        self.store._names = lambda *args: [stale]
        self.addCleanup(setattr, self.store, '_names', listed)
        self.assertEqual([], self.store.take(self.t + 200, 10, 10))
        self.assertIsNone(schedules.locks.read(
            self.driver.connection, schedules.LEASES,
            schedules.member(self.name, schedule_store.PROJECT)))
