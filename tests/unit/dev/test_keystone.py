"""Where the Keystone virtualenv is."""

import os

import fixtures
import testtools

from zaqar_delay.dev import keystone

CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))


class DefaultVenvTest(testtools.TestCase):

    def test_the_variable_wins(self):
        self.useFixture(fixtures.EnvironmentVariable(
            'ZAQAR_DELAY_SERVICES_VENV', '/opt/services'))
        self.assertEqual('/opt/services', keystone.default_venv())

    def test_else_the_checkout_s_tox_folder(self):
        self.useFixture(fixtures.EnvironmentVariable(
            'ZAQAR_DELAY_SERVICES_VENV'))
        self.assertEqual(os.path.join(CHECKOUT, '.tox', 'services'),
                         keystone.default_venv())
