import testtools

from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import records


class RecordsTest(testtools.TestCase):

    def test_the_due_time_of_a_message(self):
        mid = idtime.new()
        self.assertEqual(1790000000.125, records.due_of(
            mid, {'delay_expires': 1790000000.125}, {}))
        # Without one: its posting time.
        self.assertEqual(idtime.created_at(mid, {}),
                         records.due_of(mid, {}, {}))

    def test_only_a_rescheduled_message_waits_by_its_content(self):
        later = {'delay_expires': 1790000000.5}
        self.assertFalse(records.waits(later, 1790000000.499))
        later[records.RESCHEDULED] = 1
        self.assertTrue(records.waits(later, 1790000000.499))
        self.assertFalse(records.waits(later, 1790000000.5))
