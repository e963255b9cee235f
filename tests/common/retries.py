"""Retry backoff (``_retry_backoff``) every ``*.delay`` driver must have.

Mixed in like ``behaviour.DelayBehaviour`` (whose helpers it uses); the
clock is Zaqar's, overridden: no test sleeps for a backoff.
"""

import datetime

from oslo_utils import timeutils

from tests.common import behaviour
from zaqar_delay import retry

PROJECT = behaviour.PROJECT


class RetryBehaviour(behaviour.Helpers):

    def set_backoff(self, extra=None, **backoff):
        meta = {retry.KEY: backoff}
        meta.update(extra or {})
        self.queues.set_metadata(self.queue, meta, project=PROJECT)

    def release(self, claim_id):
        self.claims.delete(self.queue, claim_id, project=PROJECT)

    def comes_back_after(self, mid, wait):
        """The message stays hidden ``wait - 1`` seconds, then a claim
        takes it; return that claim's id."""
        if wait > 1:
            timeutils.advance_time_seconds(wait - 1)
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_seconds(1)
        claim_id, ids = self.claim(ttl=30)
        self.assertEqual([mid], ids)
        return claim_id

    def test_released_messages_back_off_1_2_4_up_to_max(self):
        self.set_backoff(initial=1, factor=2, max=5)
        (mid,) = self.post(0)
        claim_id, _ = self.claim(ttl=30)
        for wait in (1, 2, 4, 5, 5):
            self.release(claim_id)
            claim_id = self.comes_back_after(mid, wait)

    def test_a_released_message_backs_off_to_the_millisecond(self):
        self.set_backoff(initial=2)
        (mid,) = self.post(0)
        claim_id, _ = self.claim(ttl=30)
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=125))
        self.release(claim_id)
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=1999))
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=1))
        self.assertEqual([mid], self.claim()[1])

    def test_expired_claims_back_off_from_their_expiry(self):
        self.set_backoff(initial=10, factor=3, max=900)
        (mid,) = self.post(0)
        self.claim(ttl=30)
        for wait in (10, 30, 90):
            timeutils.advance_time_seconds(30)      # the claim expires
            self.comes_back_after(mid, wait)

    def test_a_backing_off_message_is_delayed_in_stats_and_lists(self):
        self.set_backoff(initial=60)
        released, kept = self.post(0, 0)
        claim_id, _ = self.claim(limit=1)
        self.claim(limit=1)
        self.release(claim_id)
        counts = self.stats_of(self.queue, PROJECT)
        self.assertEqual((2, 1, 1, 0), (counts['total'], counts['claimed'],
                                        counts['delayed'], counts['free']))
        self.assertIn('next_due', counts)
        self.assertEqual([], self.list_ids()[0])
        self.assertEqual([released],
                         self.list_ids(include_delayed=True)[0])

    def test_a_queue_without_backoff_gives_messages_back_at_once(self):
        (mid,) = self.post(0)
        claim_id, _ = self.claim()
        self.release(claim_id)
        self.assertEqual([mid], self.claim()[1])

    def test_a_dead_letter_is_not_delayed_in_its_new_queue(self):
        dlq = self.queue + '-dlq'
        self.queues.create(dlq, project=PROJECT)
        self.set_backoff({'_max_claim_count': 2, '_dead_letter_queue': dlq},
                         initial=5)
        (mid,) = self.post(0)
        claim_id, _ = self.claim(ttl=30)
        self.release(claim_id)
        claim_id = self.comes_back_after(mid, 5)
        self.release(claim_id)
        timeutils.advance_time_seconds(10)
        self.assertEqual([], self.claim()[1])      # third claim: moved
        self.assertEqual(1, len(self.claim(queue=dlq)[1]))

    def test_backoff_metadata_removed_gives_back_at_once(self):
        self.set_backoff(initial=100)
        (mid,) = self.post(0)
        claim_id, _ = self.claim()
        self.release(claim_id)
        timeutils.advance_time_seconds(100)
        self.queues.set_metadata(self.queue, {}, project=PROJECT)
        claim_id, _ = self.claim()
        self.release(claim_id)
        self.assertEqual([mid], self.claim()[1])
