"""The retry backoff suite on ``swift.delay``."""

from tests.common import retries
from tests.fixtures import swift_store


class SwiftRetryTest(retries.RetryBehaviour, swift_store.DelayTestBase):
    pass
