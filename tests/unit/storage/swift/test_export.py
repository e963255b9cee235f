import uuid

import testtools

from zaqar_delay.storage.swift import export
from zaqar_delay.storage.swift import index


class CreatedAtTest(testtools.TestCase):

    def test_from_a_swift_delay_id(self):
        name = index.new_id()
        self.assertAlmostEqual(int(name[:16], 16) / 1e6,
                               export.created_at(name, {}))

    def test_from_an_upstream_uuid1(self):
        name = str(uuid.uuid1())
        self.assertAlmostEqual(uuid.UUID(name).time / 1e7 - 12219292800,
                               export.created_at(name, {}), places=3)

    def test_else_the_object_timestamp(self):
        self.assertEqual(12.5, export.created_at(
            str(uuid.uuid4()), {'x-timestamp': '12.50000'}))
