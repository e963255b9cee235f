"""The python-zaqarclient and ``openstack messaging`` suites on a
zaqar-server with ``swift.delay``.

They sit with the swift tests so that they share their Keystone and Swift.
"""

import testtools

from tests.common import cli
from tests.common import zaqarclient
from tests.fixtures import services


def swift_options():
    return {'swift': services.keystone_swift().swift_store()}


class SwiftDelayZaqarClientTest(zaqarclient.ZaqarClientTests,
                                testtools.TestCase):
    store = 'swift.delay'
    delay = 4   # several Swift requests a step

    @classmethod
    def stack_options(cls):
        return swift_options()


class SwiftDelayCliTest(cli.OpenstackCliTests, testtools.TestCase):
    store = 'swift.delay'
    delay = 5   # several Swift requests a step

    @classmethod
    def stack_options(cls):
        return swift_options()
