"""Adjustments shared by the runs of Zaqar's storage contract tests."""

from unittest import mock

from oslo_utils import timeutils


class FrozenClockDelayTest:
    """Upstream's ``test_delay_queue``, unchanged, on a frozen clock.

    The upstream test posts a message delayed by 1 s and expects the next
    claim to come within that second; on a loaded machine it may not, and
    the message is then rightly claimed. Here Zaqar's clock is frozen and
    the test's ``time.sleep`` calls advance it, so the same steps always
    see the same times.
    """

    def test_delay_queue(self):
        timeutils.set_time_override()
        self.addCleanup(timeutils.clear_time_override)
        with mock.patch('time.sleep', timeutils.advance_time_seconds):
            super().test_delay_queue()
