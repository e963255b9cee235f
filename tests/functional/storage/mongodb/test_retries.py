"""The retry backoff suite on ``mongodb.delay``."""

from tests.common import retries
from tests.fixtures import mongodb_store


class MongoRetryTest(retries.RetryBehaviour, mongodb_store.DelayTestBase):
    pass
