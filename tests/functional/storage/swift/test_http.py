"""The python-zaqarclient suite on a zaqar-server with ``swift.delay``.

It sits with the swift tests so that it shares their Keystone and Swift.
"""

import testtools

from tests.functional.http import test_zaqarclient
from tests.functional import openstack
from tests.functional import services


class SwiftDelayZaqarClientTest(test_zaqarclient.ZaqarClientTests,
                                testtools.TestCase):
    store = 'swift.delay'
    delay = 8   # each step is several Swift requests

    @classmethod
    def stack_options(cls):
        stack = services.keystone_swift()
        return {'swift': {
            'uri': 'swift://%s:%s@/%s' % (openstack.ADMIN,
                                          openstack.PASSWORD,
                                          openstack.ADMIN),
            'auth_url': stack.keystone + '/v3',
            'region': openstack.REGION}}
