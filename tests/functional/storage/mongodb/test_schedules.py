"""The schedule index suite on ``mongodb.delay``."""

from tests.common import schedule_store
from tests.fixtures import mongodb_store


class MongoScheduleStoreTest(schedule_store.ScheduleStoreBehaviour,
                             mongodb_store.DelayTestBase):
    pass
