"""What wsgi.delay relies on of Zaqar's WSGI transport is there."""

import inspect

import testtools
from zaqar.transport import acl
from zaqar.transport.wsgi import driver
from zaqar.transport.wsgi.v2_0 import claims
from zaqar.transport.wsgi.v2_0 import messages

from zaqar_delay.transport import upstream


class UpstreamTest(testtools.TestCase):

    def test_the_resources_keep_their_controllers_where_we_replace_them(self):
        for resource in (messages.CollectionResource, messages.ItemResource):
            self.assertIn(upstream.MESSAGE_CONTROLLER, resource.__slots__)
        for resource in (claims.CollectionResource, claims.ItemResource):
            self.assertIn(upstream.CLAIM_CONTROLLER, resource.__slots__)

    def test_the_driver_sets_the_settings_we_read(self):
        source = inspect.getsource(driver.Driver) + inspect.getsource(
            driver.Driver.__mro__[1])
        for name in upstream.DRIVER_SETTINGS:
            self.assertIn('self.%s = ' % name, source, name)

    def test_the_policy_enforcer_is_a_module_global(self):
        self.assertIn('ENFORCER', vars(acl))
        self.assertIs(acl.ENFORCER, upstream.enforcer())
