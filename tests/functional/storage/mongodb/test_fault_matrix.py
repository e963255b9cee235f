"""The fault matrix (``tests/common/fault_matrix.py``) on
``mongodb.delay``: each MongoDB request of an operation fails in turn."""

from pymongo import collection
from pymongo import errors as mongo_errors

from tests.common import fault_matrix
from tests.fixtures import mongodb_store


class MongoFaultMatrixTest(fault_matrix.FaultMatrix,
                           mongodb_store.DelayTestBase):

    FAULT_METHODS = ('find', 'find_one', 'count_documents', 'insert_one',
                     'insert_many', 'update_one', 'update_many',
                     'delete_one', 'delete_many', 'find_one_and_delete',
                     'find_one_and_update')

    def fault_target(self):
        return collection.Collection

    def fault_error(self):
        return mongo_errors.AutoReconnect('injected')
