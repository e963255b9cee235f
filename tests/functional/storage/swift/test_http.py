"""The python-zaqarclient and ``openstack messaging`` suites, and the
``wsgi.delay`` transport's (due times, reschedules, moves), on a
zaqar-server with ``swift.delay``.

They sit with the swift tests so that they share their Keystone and Swift.
"""

import testtools

from tests.common import cli
from tests.common import waiting_control
from tests.common import zaqarclient


class SwiftDelayZaqarClientTest(zaqarclient.ZaqarClientTests,
                                testtools.TestCase):
    store = 'swift.delay'
    delay = 4   # several Swift requests a step


class SwiftDelayCliTest(cli.OpenstackCliTests, testtools.TestCase):
    store = 'swift.delay'
    delay = 5   # several Swift requests a step


class SwiftDelayWaitingControlTest(waiting_control.WaitingControl,
                                   testtools.TestCase):
    store = 'swift.delay'


class PooledSwiftDelayWaitingControlTest(
        waiting_control.PooledWaitingControl, testtools.TestCase):
    """Both pools on the account of the tests' Swift (queues of one pool
    are not in the other's): their URIs differ by a query, which the
    driver does not read."""
    store = 'swift.delay'

    @classmethod
    def pool_uri(cls, uri, n):
        return '%s?pool=%d' % (uri, n)
