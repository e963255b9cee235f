"""The schedule index suite on ``swift.delay``."""

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
