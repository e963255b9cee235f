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


class DerivedTest(testtools.TestCase):

    def test_the_same_copy_id_each_time_with_the_posting_time(self):
        name = idtime.new()
        copy = idtime.derived(name, 0, 'q', 'p')
        self.assertEqual(copy, idtime.derived(name, 0, 'q', 'p'))
        self.assertNotEqual(copy, idtime.derived(name, 0, 'r', 'p'))
        self.assertNotEqual(name, copy)
        self.assertEqual(name[:17], copy[:17])
        self.assertEqual(idtime.created_at(name, {}),
                         idtime.created_at(copy, {}))

    def test_of_an_upstream_id_a_swift_delay_id_of_its_time(self):
        name = str(uuid.uuid1())
        posted = idtime.created_at(name, {})
        copy = idtime.derived(name, posted, 'q', 'p')
        self.assertIsNotNone(idtime.second(copy))
        self.assertAlmostEqual(posted, idtime.created_at(copy, {}),
                               places=5)


class SecondTest(testtools.TestCase):

    def test_the_second_of_a_swift_delay_id(self):
        self.assertEqual('000661198e1', idtime.second(
            '000661198e1e412f-06bb658e47944662'))

    def test_none_for_other_ids(self):
        self.assertIsNone(idtime.second(str(uuid.uuid1())))
