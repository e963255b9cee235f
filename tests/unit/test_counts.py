"""The counters a store keeps for the metrics: fields and buckets."""

import testtools

from zaqar_delay import counts


class CountsTest(testtools.TestCase):

    def test_bucket_field_of_a_lateness(self):
        self.assertEqual(['ms:le:5', 'ms:le:5', 'ms:le:10', 'ms:le:1000',
                          'ms:le:5000', 'ms:le:3600000', 'ms:le:inf'],
                         [counts.bucket_field(ms) for ms in (
                             0, 5, 6, 1000, 3001, 3600000, 3600001)])

    def test_lateness_is_whole_milliseconds(self):
        self.assertEqual(7, counts.lateness_ms(100.0076, 100.001))
        self.assertEqual(0, counts.lateness_ms(100.001, 100.001))
        self.assertEqual(-2, counts.lateness_ms(100.0, 100.002))

    def test_counted_of_a_stores_fields(self):
        found = counts.Counted.of_fields({
            'ms:le:25': b'3', 'ms:le:inf': '1', 'ms:sum': 7000,
            'ms:count': 4, 'early': None, 'dead_lettered': 2,
            'expired_backoff': b'5', 'le:0': 9})
        self.assertEqual(3, found.buckets[25])
        self.assertEqual(1, found.buckets[None])
        self.assertEqual(0, found.buckets[5])
        self.assertEqual((7.0, 4, 0, 0, 2, 5), found[1:])
