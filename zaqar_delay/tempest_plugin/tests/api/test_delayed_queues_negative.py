"""Out-of-range delays and queue defaults get a 400 that says why."""

from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from zaqar_delay.tempest_plugin.tests import base


class TestDelayedQueuesNegative(base.DelayedQueueTest):

    def refused(self, queue, delay):
        return self.assertRaises(
            lib_exc.BadRequest, self.post, queue,
            {'body': 1, 'ttl': self.max_delay + 60, 'delay': delay})

    @decorators.attr(type=['negative'])
    @decorators.idempotent_id('d4a7e5f6-0b8c-4f9e-9d2c-3b4a5f6e7d06')
    def test_negative_delay(self):
        queue = self.make_queue(default_delay=self.delay)
        error = self.refused(queue, -1)
        self.assertIn('at least 0', str(error))

    @decorators.attr(type=['negative'])
    @decorators.idempotent_id('e5b8f6a7-1c9d-4a0f-8e3d-4c5b6a7f8e07')
    def test_non_integer_delay(self):
        queue = self.make_queue(default_delay=self.delay)
        for value in ('soon', 1.5, None, [1]):
            error = self.refused(queue, value)
            self.assertIn('delay', str(error))

    @decorators.attr(type=['negative'])
    @decorators.idempotent_id('f6c9a7b8-2d0e-4b1a-9f4e-5d6c7b8a9f08')
    def test_delay_above_the_maximum(self):
        queue = self.make_queue(default_delay=self.delay)
        error = self.refused(queue, self.max_delay + 1)
        self.assertIn(str(self.max_delay), str(error))

    @decorators.attr(type=['negative'])
    @decorators.idempotent_id('07dab8c9-3e1f-4c2b-8a5f-6e7d8c9b0a09')
    def test_bad_queue_default_delay(self):
        queue = self.make_queue()
        for value, reason in ((-5, 'at least 0'),
                              ('soon', 'must be integer'),
                              (1.5, 'must be integer'),
                              (self.max_delay + 1, str(self.max_delay))):
            error = self.assertRaises(lib_exc.BadRequest,
                                      self.set_default_delay, queue, value)
            self.assertIn(reason, str(error))

    @decorators.attr(type=['negative'])
    @decorators.idempotent_id('18ebc9da-4f2a-4d3c-9b6a-7f8e9d0c1b10')
    def test_ttl_shorter_than_the_delay(self):
        queue = self.make_queue(default_delay=self.delay)
        error = self.assertRaises(
            lib_exc.BadRequest, self.post, queue,
            {'body': 1, 'ttl': 60, 'delay': min(120, self.max_delay)})
        self.assertIn('ttl longer than its delay', str(error))
