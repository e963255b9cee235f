"""Concurrent claimers on ``swift.delay`` and the real Swift."""

from zaqar.tests import base as zaqar_base

from tests.common import concurrency
from tests.fixtures import swift_store


class SwiftConcurrentClaimersTest(concurrency.ConcurrentClaimers,
                                  swift_store.SwiftMixin, zaqar_base.TestBase):
    config_file = swift_store.CONF
    # Parallel claimers on swift.delay deliver about one message a second
    # here (issue: parallel consumers); the bound leaves room for that.
    messages = 40
    claim_seconds = 240

    def setUp(self):
        super().setUp()
        self.control, self.data = swift_store.drivers(self.conf)

    def _driver(self):
        return self.control, self.data
