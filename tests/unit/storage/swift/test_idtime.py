import uuid

import testtools

from zaqar_delay.storage.swift import idtime


class NewTest(testtools.TestCase):

    def test_ids_sort_by_posting_time(self):
        made = [idtime.new() for _ in range(50)]
        self.assertEqual(made, sorted(made))
        self.assertEqual(50, len(set(made)))


class CreatedAtTest(testtools.TestCase):

    def test_from_a_swift_delay_id(self):
        name = idtime.new()
        self.assertAlmostEqual(int(name[:16], 16) / 1e6,
                               idtime.created_at(name, {}))

    def test_from_an_upstream_uuid1(self):
        name = str(uuid.uuid1())
        self.assertAlmostEqual(uuid.UUID(name).time / 1e7 - 12219292800,
                               idtime.created_at(name, {}), places=3)

    def test_else_the_object_timestamp(self):
        self.assertEqual(12.5, idtime.created_at(
            str(uuid.uuid4()), {'x-timestamp': '12.50000'}))


class SecondTest(testtools.TestCase):

    def test_the_second_of_a_swift_delay_id(self):
        self.assertEqual('000661198e1', idtime.second(
            '000661198e1e412f-06bb658e47944662'))

    def test_none_for_other_ids(self):
        self.assertIsNone(idtime.second(str(uuid.uuid1())))
