"""Concurrent claimers on ``mongodb.delay``."""

from zaqar.tests import base as zaqar_base

from tests.common import concurrency
from tests.fixtures import mongodb_store


class MongoConcurrentClaimersTest(concurrency.ConcurrentClaimers,
                                  mongodb_store.MongoMixin,
                                  zaqar_base.TestBase):
    config_file = mongodb_store.CONF
    messages = 600

    def setUp(self):
        super().setUp()
        self.control, self.data = mongodb_store.drivers(self.conf)

    def _driver(self):
        return self.control, self.data

    def _purge_databases(self):
        for db in self.data.message_databases + [
                self.control.queues_database]:
            self.data.connection.drop_database(db)
