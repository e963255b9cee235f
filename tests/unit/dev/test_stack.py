"""The zaqar.conf that ``dev.stack.Stack`` writes."""

import testtools

from zaqar_delay.dev import stack


class SectionsTest(testtools.TestCase):

    def stack(self, **kwargs):
        made = stack.Stack(**kwargs)
        self.addCleanup(made.cleanup)       # its folder
        return made

    def sections(self, **kwargs):
        made = self.stack(**kwargs)
        return made.sections('wsgi', made.port)

    def test_osprofiler_s_notifier_failure_is_not_logged(self):
        levels = self.sections()['DEFAULT']['default_log_levels'].split(',')
        self.assertIn('osprofiler.notifier=CRITICAL', levels)
        self.assertIn('stevedore=WARN', levels)     # oslo.log's own kept

    def test_noauth_unless_keystone_is_given(self):
        self.assertNotIn('auth_strategy', self.sections()['DEFAULT'])
        sections = self.sections(keystone={
            'auth_url': 'http://127.0.0.1:5000/v3', 'user': 'admin',
            'password': 'pw', 'project': 'admin'})
        self.assertEqual('keystone', sections['DEFAULT']['auth_strategy'])
        self.assertEqual('http://127.0.0.1:5000/v3',
                         sections['keystone_authtoken']['auth_url'])

    def test_with_keystone_a_401_ping_finds_it_up(self):
        self.assertFalse(self.stack().ready(401))
        self.assertTrue(self.stack().ready(204))
        self.assertTrue(self.stack(keystone={'user': 'a'}).ready(401))
