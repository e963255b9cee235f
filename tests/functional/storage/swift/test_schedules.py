"""The schedule index suite on ``swift.delay``."""

from tests.common import schedule_store
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import driver
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import schedules


class SwiftScheduleStoreTest(schedule_store.ScheduleStoreBehaviour,
                             swift_store.DelayTestBase):
    shows_lease = False     # next_tick: the look the last pass recorded

    def setUp(self):
        # The driver does not use this index yet (doc/source/
        # schedules.rst): the suite gives it one.
        self.addCleanup(setattr, driver.DataDriver, 'schedule_class',
                        driver.DataDriver.schedule_class)
        driver.DataDriver.schedule_class = schedules.Schedules
        super().setUp()
        # The index is the store's, not a queue's: start it empty.
        client = self.driver.connection
        for container in (schedules.LOOKS, schedules.STATE,
                          schedules.LEASES, schedules.DEFINED):
            with responses.tolerating(responses.NOT_FOUND):
                for obj in client.get_container(container,
                                                full_listing=True)[1]:
                    client.delete_object(container, obj['name'])
