"""The metrics counters of ``mongodb.delay`` (storage/mongodb/counters)."""

from tests.common import counters
from tests.fixtures import mongodb_store
from zaqar_delay.storage.mongodb import metrics


class MongoCountersTest(counters.CounterBehaviour,
                        mongodb_store.DelayTestBase):
    reader = metrics.Metrics
