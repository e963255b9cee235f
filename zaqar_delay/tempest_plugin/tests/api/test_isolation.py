"""One project never sees another's delayed messages or counts."""

from tempest.lib import decorators

from zaqar_delay.tempest_plugin.tests import base


class TestDelayedQueueIsolation(base.TwoProjectTest):
    @decorators.idempotent_id('29fcdaeb-5a3b-4e4d-8c7b-8a9f0e1d2c11')
    def test_other_project_sees_nothing_of_a_delayed_queue(self):
        queue = self.make_queue(default_delay=self.max_delay)
        self.post(queue, {'body': 'ready', 'ttl': 300, 'delay': 0},
                  {'body': 'waiting', 'ttl': self.max_delay + 60})
        self.alt_client.create_queue(queue)
        self.addCleanup(self.alt_client.delete_queue, queue)
        self.assertEqual([], self.bodies(queue, client=self.alt_client,
                                         include_delayed=True,
                                         include_claimed=True))
        counts = self.counts(queue, client=self.alt_client)
        self.assertEqual((0, 0), (counts['total'], counts['delayed']))
        self.assertEqual([], self.claim(queue, client=self.alt_client))
        self.assertEqual(['ready'], self.claim(queue))
