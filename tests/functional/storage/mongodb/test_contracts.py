"""The backend contracts (``tests.common.contracts``) on
``mongodb.delay``."""

from tests.common import contracts
from tests.fixtures import mongodb_store


class MongoContractsTest(contracts.Contracts, mongodb_store.DelayTestBase):

    def migrate(self):
        # Each test has a database of its own (``mongodb_store``).
        settings = self.driver.mongodb_conf
        return self.driver.migrate_class.connect(
            [], settings.uri, settings.database, settings.partitions)
