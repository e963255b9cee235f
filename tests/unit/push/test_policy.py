"""Retry policies read as Zaqar's webhook task reads them, and what an
answer means."""

import testtools

from zaqar_delay.push import policy


class PolicyTest(testtools.TestCase):

    def test_zaqars_defaults_wait_three_minutes_in_fourteen_retries(self):
        waits = policy.waits({})
        self.assertEqual([0, 0, 0, 5, 5, 5, 5, 10, 15, 20, 25, 30, 30, 30],
                         waits)

    def test_a_policy_overrides_the_defaults_it_names(self):
        self.assertEqual([0, 2, 2], policy.waits({
            'retries_with_no_delay': 1, 'minimum_delay_retries': 1,
            'minimum_delay': 2, 'maximum_delay': 2,
            'maximum_delay_retries': 1}))

    def test_a_backoff_zaqar_cannot_compute_has_no_waits(self):
        self.assertEqual([0, 1], policy.waits({
            'retries_with_no_delay': 1, 'minimum_delay_retries': 0,
            'minimum_delay': 1, 'maximum_delay': 1,
            'maximum_delay_retries': 1,
            'retry_backoff_function': 'geometric'}))

    def test_the_subscriptions_policy_wins_unless_the_queue_forbids(self):
        mine, queues = {'minimum_delay': 1}, {'minimum_delay': 9}
        self.assertIs(mine, policy.chosen(mine, queues))
        self.assertIs(queues, policy.chosen({}, queues))
        forbid = dict(queues, ignore_subscription_override=True)
        self.assertIs(forbid, policy.chosen(mine, forbid))

    def test_what_is_retried(self):
        for status in (None, 408, 425, 429, 500, 502, 503, 504):
            self.assertEqual(policy.RETRY, policy.verdict(status), status)
        for status in (200, 201, 202, 204):
            self.assertEqual(policy.DONE, policy.verdict(status), status)
        for status in (301, 400, 401, 403, 404, 410, 413):
            self.assertEqual(policy.FAILED, policy.verdict(status), status)
