"""Bad queue metadata is refused at PUT and PATCH on ``swift.delay``
(the suite of tests/common/queue_metadata.py)."""

import testtools

from tests.common import queue_metadata
from tests.fixtures import services
from tests.fixtures import zaqar_server


class SwiftDelayBadMetadataTest(queue_metadata.BadMetadataTests,
                                testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.stack = zaqar_server.ZaqarServer(
            message_store='swift.delay', max_delay=queue_metadata.MAX_DELAY,
            swift=services.keystone_swift().swift_store()).start()

    @classmethod
    def tearDownClass(cls):
        cls.stack.cleanup()
        super().tearDownClass()
