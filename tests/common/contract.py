"""Adjustments shared by the runs of Zaqar's storage contract tests."""

import threading
import time
from unittest import mock
import uuid

from oslo_utils import timeutils
from zaqar.storage import errors


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


class CollectedExpiryTest:
    """Upstream's ``test_expired_messages``, its steps in a fixed order.

    Upstream sleeps a second, runs ``gc`` and asks ``get`` whether the
    short-lived message is gone; ``get`` judges expiry in whole seconds
    and may say so up to a second before the store drops the message, so
    that ``gc``, run just before, left it counted in the stats (a second
    boundary). Here ``gc`` runs until it has collected the message (with
    a deadline), then upstream's checks follow: the expired message is
    not listed, not counted as free, not popped.
    """

    def test_expired_messages(self):
        expired, kept = self.controller.post(
            self.queue_name, [{'body': 3.14, 'ttl': 1},
                              {'body': 0.618, 'ttl': 600}],
            project=self.project, client_uuid=uuid.uuid4())
        deadline = time.monotonic() + 30
        while self.queue_controller.stats(
                self.queue_name, project=self.project)['messages'][
                    'total'] > 1:
            self.assertLess(time.monotonic(), deadline, 'never collected')
            time.sleep(0.2)
            self.driver.gc()
        self.assertRaises(errors.DoesNotExist, self.controller.get,
                          self.queue_name, expired, project=self.project)
        listed = list(next(self.controller.list(self.queue_name,
                                                project=self.project)))
        self.assertEqual([kept], [m['id'] for m in listed])
        stats = self.queue_controller.stats(self.queue_name,
                                            project=self.project)
        self.assertEqual(1, stats['messages']['free'])
        popped = self.controller.pop(self.queue_name, limit=10,
                                     project=self.project)
        self.assertEqual([kept], [m['id'] for m in popped])
