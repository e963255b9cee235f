"""Concurrent claimers on ``swift.delay`` and the real Swift."""

from zaqar.tests import base as zaqar_base

from tests.functional.storage import concurrency
from tests.functional.storage.swift import base


class SwiftConcurrentClaimersTest(concurrency.ConcurrentClaimers,
                                  base.SwiftMixin, zaqar_base.TestBase):
    config_file = base.CONF
    messages = 60
    claim_seconds = 180

    def setUp(self):
        super().setUp()
        self.control, self.data = base.drivers(self.conf)

    def _driver(self):
        return self.control, self.data
