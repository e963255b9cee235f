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


class TemplateTest(testtools.TestCase):
    """Each Keystone's data start from a folder made once for the
    virtualenv."""

    def setUp(self):
        super().setUp()
        self.venv = self.useFixture(fixtures.TempDir()).path
        self.ran = []
        self.useFixture(fixtures.MockPatch(
            'zaqar_delay.dev.keystone.services_venv',
            lambda venv=None: self.venv))
        self.useFixture(fixtures.MockPatchObject(
            keystone.Keystone, '_run', self.fake_run))

    def fake_run(self, *argv, **kwargs):
        command = argv[3]
        self.ran.append(command)
        folder = os.path.dirname(argv[2])       # --config-file's folder
        made = {'db_sync': 'keystone.db', 'fernet_setup': 'fernet-keys',
                'receipt_setup': 'receipt-keys',
                'credential_setup': 'credential-keys'}[command]
        if made.endswith('.db'):
            open(os.path.join(folder, made), 'w').close()
        else:
            os.makedirs(os.path.join(folder, made, '0'))

    def keystone(self):
        return keystone.Keystone(
            dir=self.useFixture(fixtures.TempDir()).path)

    def test_made_once_then_reused(self):
        first = self.keystone()._template()
        self.assertEqual(['db_sync', 'fernet_setup', 'receipt_setup',
                          'credential_setup'], self.ran)
        self.assertEqual(first, self.keystone()._template())
        self.assertEqual(4, len(self.ran))
        for name in keystone.TEMPLATE_FILES:
            self.assertTrue(os.path.exists(os.path.join(first, name)))

    def test_one_that_died_half_way_is_made_again(self):
        folder = os.path.join(self.venv, keystone.TEMPLATE)
        os.makedirs(os.path.join(folder, 'fernet-keys'))
        self.keystone()._template()
        self.assertEqual(4, len(self.ran))
        self.assertTrue(os.path.exists(os.path.join(folder, 'keystone.db')))
