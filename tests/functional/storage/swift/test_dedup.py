"""The deduplication suite on ``swift.delay``."""

from tests.common import dedup
from tests.fixtures import swift_store


class SwiftDedupTest(dedup.DedupBehaviour, swift_store.DelayTestBase):
    race_posts = 50     # 200 racing posts over the 100 keys: Swift is slow
