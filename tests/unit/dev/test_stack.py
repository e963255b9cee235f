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
