"""A stream of posts and claims from several clients through an outage
(``tests/common/outage.py``) on a zaqar-server with ``swift.delay``: the
zaqar-server killed with kill -9 and started again; Swift's object
server killed and started again."""

import time

import testtools

from tests.common import outage
from tests.fixtures import services
from tests.fixtures import zaqar_server


class SwiftOutage(outage.OutageTests):

    def setUp(self):
        super().setUp()
        self.swift = services.keystone_swift()
        self.stack = zaqar_server.ZaqarServer(
            message_store='swift.delay',
            swift=self.swift.swift_store()).start()
        self.addCleanup(self.stack.cleanup)

    def url(self):
        return self.stack.url


class SwiftDelayServerKillTest(SwiftOutage, testtools.TestCase):

    def disrupt(self):
        self.stack.kill()
        self.stack.restart()


class SwiftObjectServerRestartTest(SwiftOutage, testtools.TestCase):

    # swiftclient retries a failed request after 1, 2, 4, 8 and 16 s:
    # a shorter outage only pauses requests; this one makes them fail,
    # in the middle of operations of several requests.
    OUTAGE = 35

    def disrupt(self):
        argv = self.swift.kill_server('object')
        try:
            time.sleep(self.OUTAGE)
        finally:
            self.swift.start_server('object', argv)
