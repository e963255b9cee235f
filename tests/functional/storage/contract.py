"""Adjustments shared by the runs of Zaqar's storage contract tests."""

import threading
import time
from unittest import mock

from oslo_utils import timeutils


class FrozenClockDelayTest:
    """Upstream's ``test_delay_queue``, unchanged, on a frozen clock.

    The upstream test posts a message delayed by 1 s and expects the next
    claim to come within that second; on a loaded machine it may not, and
    the message is then rightly claimed. Here Zaqar's clock is frozen and
    the test's own ``time.sleep`` calls advance it, so the same steps
    always see the same times. Other threads (database drivers' monitors)
    keep sleeping for real.
    """

    def test_delay_queue(self):
        timeutils.set_time_override()
        self.addCleanup(timeutils.clear_time_override)
        test_thread = threading.current_thread()
        real_sleep = time.sleep

        def sleep(seconds):
            if threading.current_thread() is test_thread:
                timeutils.advance_time_seconds(seconds)
            else:
                real_sleep(seconds)

        with mock.patch('time.sleep', sleep):
            super().test_delay_queue()
