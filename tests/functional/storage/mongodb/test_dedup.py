"""The deduplication suite on ``mongodb.delay``."""

from tests.common import dedup
from tests.fixtures import mongodb_store


class MongoDedupTest(dedup.DedupBehaviour, mongodb_store.DelayTestBase):
    pass
