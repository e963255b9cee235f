"""What Zaqar looks up by name finds every delay driver and its stages."""

import stevedore
import testtools

from zaqar_delay.storage.mongodb import driver as mongodb
from zaqar_delay.storage.redis import driver as redis
from zaqar_delay.storage.swift import driver as swift
from zaqar_delay.storage.swift import stages as swift_stages

DRIVERS = {
    'redis.delay': redis.DataDriver,
    'mongodb.delay': mongodb.DataDriver,
    'mongodb.fifo.delay': mongodb.FIFODataDriver,
}


class EntryPointsTest(testtools.TestCase):

    def test_storage_drivers(self):
        for name, cls in DRIVERS.items():
            found = stevedore.DriverManager('zaqar.data.storage', name)
            self.assertIs(cls, found.driver, name)

    def test_stage_namespaces_follow_the_driver_module(self):
        # Zaqar loads '<driver module>.<resource>.stages', in this order:
        # the metadata check before the handler that registers a queue,
        # so that a refused queue is registered nowhere.
        stages = {'queue': ['check_metadata', 'message_queue_handler'],
                  'topic': ['message_queue_handler']}
        for cls in DRIVERS.values():
            for resource, expected in stages.items():
                names = stevedore.ExtensionManager(
                    '%s.%s.stages' % (cls.__module__, resource)).names()
                self.assertEqual(expected, names, (cls, resource))

    def test_swift_stages_are_the_translated_ones(self):
        # Each raises a Swift that fails as StoreUnavailable (failures).
        for resource, cls in (
                ('queue', swift_stages.MessageQueueHandler),
                ('topic', swift_stages.MessageTopicHandler)):
            found = stevedore.ExtensionManager('%s.%s.stages' % (
                swift.DataDriver.__module__, resource))
            self.assertEqual([cls], [
                ext.plugin for ext in found
                if ext.name == 'message_queue_handler'], resource)
