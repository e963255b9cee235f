"""Delayed queues through Zaqar's v2 API."""

from tempest.lib import decorators

from zaqar_delay.tempest_plugin.tests import base


class TestDelayedQueues(base.DelayedQueueTest):

    @decorators.idempotent_id('0f0d3c71-5a57-4f7e-8d35-3c3f4d1f6a01')
    def test_queue_default_delay_holds_messages(self):
        queue = self.make_queue(default_delay=self.delay)
        posted_at = self.post(queue, {'body': 'later', 'ttl': 300})
        self.assertEqual([], self.claim(queue))
        self.assertEqual([], self.bodies(queue))
        self.claim_when_due(queue, posted_at, ['later'])

    @decorators.idempotent_id('6d3e1a0c-2f43-4a1d-9d0e-4b8c1f0e6a02')
    def test_message_delay_overrides_the_queue_default(self):
        queue = self.make_queue(default_delay=self.max_delay)
        posted_at = self.post(queue,
                              {'body': 'now', 'ttl': 300, 'delay': 0},
                              {'body': 'soon', 'ttl': 300,
                               'delay': self.delay},
                              {'body': 'default', 'ttl': self.max_delay + 60})
        self.assertEqual(['now'], self.claim(queue))
        self.assertEqual([], self.claim(queue))
        self.claim_when_due(queue, posted_at, ['soon'])

    @decorators.idempotent_id('a1f4b2c3-7e5d-4c6b-8a9f-0e1d2c3b4a03')
    def test_delays_do_not_apply_on_a_queue_without_a_default(self):
        queue = self.make_queue()
        self.post(queue, {'body': 'x', 'ttl': 300, 'delay': self.delay})
        self.assertEqual(['x'], self.claim(queue))

    @decorators.idempotent_id('b2e5c3d4-8f6a-4d7c-9b0a-1f2e3d4c5b04')
    def test_list_with_and_without_include_delayed(self):
        queue = self.make_queue(default_delay=self.max_delay)
        self.post(queue, {'body': 'ready', 'ttl': 300, 'delay': 0},
                  {'body': 'waiting', 'ttl': self.max_delay + 60})
        self.assertEqual(['ready'], self.bodies(queue))
        self.assertEqual(['ready', 'waiting'],
                         self.bodies(queue, include_delayed=True))
        self.assertEqual(['ready'], self.claim(queue))
        self.assertEqual([], self.bodies(queue))
        self.assertEqual(['ready', 'waiting'], self.bodies(
            queue, include_delayed=True, include_claimed=True))

    @decorators.idempotent_id('c3f6d4e5-9a7b-4e8d-8c1b-2a3f4e5d6c05')
    def test_stats_count_the_delayed_messages(self):
        queue = self.make_queue(default_delay=self.max_delay)
        self.post(queue, {'body': 'one', 'ttl': 300, 'delay': 0},
                  {'body': 'two', 'ttl': self.max_delay + 60},
                  {'body': 'three', 'ttl': self.max_delay + 60})
        self.claim(queue, limit=1)
        counts = self.counts(queue)
        self.assertEqual((3, 1, 2, 0), (counts['total'], counts['claimed'],
                                        counts['delayed'], counts['free']))
        self.assertIn('next_due', counts)
