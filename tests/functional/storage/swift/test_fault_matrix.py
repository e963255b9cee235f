"""The fault matrix (``tests/common/fault_matrix.py``) on ``swift.delay``:
each Swift request of an operation fails in turn."""

import swiftclient
from zaqar.storage.swift import driver as upstream_driver

from tests.common import fault_matrix
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import migrate


class SwiftFaultMatrixTest(fault_matrix.FaultMatrix,
                           swift_store.DelayTestBase):

    FAULT_METHODS = ('get_object', 'head_object', 'put_object',
                     'post_object', 'delete_object', 'get_container')

    def fault_target(self):
        return self.driver.connection

    def fault_error(self):
        return swiftclient.ClientException('injected', http_status=503)

    def upstream_driver(self):
        return upstream_driver.DataDriver(self.conf, self.control.cache,
                                          self.control)

    def migrate(self, queue):
        for _ in migrate.reindex(self.driver.connection, queue,
                                 fault_matrix.PROJECT, batch=2):
            pass
