"""A backend's services found through the driver ``zaqar.conf`` names."""

import testtools

from zaqar_delay.storage import base
from zaqar_delay.storage import services
from zaqar_delay.storage.mongodb import driver as mongodb
from zaqar_delay.storage.redis import driver as redis
from zaqar_delay.storage.redis import export as redis_export
from zaqar_delay.storage.swift import probe as swift_probe


class ServicesTest(testtools.TestCase):

    def test_a_delay_driver_is_found_by_its_entry_point(self):
        self.assertIs(redis.DataDriver, services.driver_class('redis.delay'))
        self.assertIs(mongodb.FIFODataDriver,
                      services.driver_class('mongodb.fifo.delay'))

    def test_upstreams_driver_is_read_by_the_delay_driver_of_its_store(self):
        self.assertIs(redis_export.Export, services.service('redis',
                                                            'export'))
        self.assertIs(mongodb.FIFODataDriver,
                      services.driver_class('mongodb.fifo'))

    def test_a_stores_probe_is_found_through_its_driver(self):
        self.assertIs(swift_probe.Probe, services.service('swift', 'probe'))
        self.assertEqual('auth_url', services.service('swift.delay',
                                                      'probe').option)
        self.assertEqual('uri', services.service('mongodb.fifo',
                                                 'probe').option)

    def test_a_store_of_no_delay_driver_has_no_service(self):
        self.assertIsNone(services.driver_class('sqlalchemy'))
        self.assertIsNone(services.service('sqlalchemy', 'export'))

    def test_every_driver_keeps_every_service(self):
        names = ['mongodb.delay', 'mongodb.fifo.delay', 'redis.delay',
                 'swift.delay']
        for kind in services.KINDS:
            self.assertEqual(names, services.offering(kind), kind)

    def test_a_service_missing_a_method_cannot_be_made(self):
        class Partial(base.PushStore):
            def take(self, now, limit, lease):
                return []

        self.assertRaises(TypeError, Partial, None)
