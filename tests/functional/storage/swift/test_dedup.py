"""The deduplication suite on ``swift.delay``."""

from tests.common import dedup
from tests.fixtures import faults
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import client


class SwiftDedupTest(dedup.DedupBehaviour, swift_store.DelayTestBase):
    race_posts = 50     # 200 racing posts over the 100 keys: Swift is slow
    race_retries = 3


class SlowSwiftDedupTest(dedup.DedupRace, swift_store.DelayTestBase):
    """Racing posts on a Swift whose every request waits up to half a
    second on its way in and again on its way out."""
    race_posts = 10     # 40 racing posts over 20 keys
    race_keys = 20
    race_retries = 3

    def setUp(self):
        super().setUp()
        faults.latency(self, client.Client, '_exchange', 0.5)
