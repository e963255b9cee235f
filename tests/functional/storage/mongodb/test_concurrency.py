"""Concurrent claimers on ``mongodb.delay``."""

from zaqar.tests import base as zaqar_base

from tests.functional.storage import concurrency
from tests.functional.storage.mongodb import base


class MongoConcurrentClaimersTest(concurrency.ConcurrentClaimers,
                                  base.MongoMixin, zaqar_base.TestBase):
    config_file = base.CONF
    messages = 600

    def setUp(self):
        super().setUp()
        self.control, self.data = base.drivers(self.conf)

    def _driver(self):
        return self.control, self.data

    def _purge_databases(self):
        for db in self.data.message_databases + [
                self.control.queues_database]:
            self.data.connection.drop_database(db)
