"""The fault matrix (``tests/common/fault_matrix.py``) on
``mongodb.delay``: each MongoDB request of an operation fails in turn."""

from pymongo import collection
from pymongo import errors as mongo_errors
from zaqar.storage.mongodb import driver as upstream_driver

from tests.common import fault_matrix
from tests.fixtures import mongodb_store
from zaqar_delay.storage.mongodb import migrate


class MongoFaultMatrixTest(fault_matrix.FaultMatrix,
                           mongodb_store.DelayTestBase):

    FAULT_METHODS = ('find', 'find_one', 'count_documents', 'insert_one',
                     'insert_many', 'update_one', 'update_many',
                     'delete_one', 'delete_many', 'find_one_and_delete',
                     'find_one_and_update')
    FAULT_READS = ('find', 'find_one', 'count_documents')

    def fault_target(self):
        return collection.Collection

    def fault_error(self):
        return mongo_errors.AutoReconnect('injected')

    def upstream_driver(self):
        return upstream_driver.DataDriver(self.conf, self.control.cache,
                                          self.control)

    def dead_letter_queue(self, queue):
        return mongodb_store.other_partition(self, queue,
                                             fault_matrix.PROJECT)

    def migrate(self, queue):
        coll = self.driver.message_controller.collection(
            queue, fault_matrix.PROJECT)
        for _ in migrate.reindex(coll, batch=2):
            pass

    def op_migrate(self, case):
        # Migration reads whole collections: earlier cases' messages would
        # change its count of requests.
        self.driver.message_controller.collection(
            case.queue, fault_matrix.PROJECT).delete_many({})
        return super().op_migrate(case)
