"""osprofiler's notifier failure, dropped from the commands' output."""

import logging

import fixtures
from osprofiler import notifier
import testtools

from zaqar_delay.cmd import noise


class QuietProfilerTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.logs = self.useFixture(fixtures.FakeLogger(
            name=noise.NOTIFIER_LOGGER, level=logging.INFO))
        notifier.clear_notifier_cache()
        self.addCleanup(notifier.clear_notifier_cache)
        # Commands run by other tests of this process may have added it.
        logger = logging.getLogger(noise.NOTIFIER_LOGGER)
        before = list(logger.filters)
        logger.removeFilter(noise._FILTER)
        self.addCleanup(setattr, logger, 'filters', before)

    def build(self):
        # As Zaqar's Bootstrap does, with a driver that cannot load.
        notifier.create('nosuchdriver://', project='Zaqar',
                        service='Zaqar-server', host='h', conf=None)

    def test_without_it_osprofiler_logs_an_error(self):
        self.build()
        self.assertIn('Could not initialize driver', self.logs.output)

    def test_with_it_nothing_is_logged(self):
        noise.quiet_profiler()
        noise.quiet_profiler()      # twice: one filter
        self.build()
        self.assertEqual('', self.logs.output)
        self.assertEqual(1, logging.getLogger(
            noise.NOTIFIER_LOGGER).filters.count(noise._FILTER))
