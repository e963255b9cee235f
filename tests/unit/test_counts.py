"""The counters a store keeps for the metrics: fields and buckets."""

import testtools

from zaqar_delay import counts


class CountsTest(testtools.TestCase):

    def test_bucket_field_of_a_lateness(self):
        self.assertEqual(['le:0', 'le:1', 'le:5', 'le:5', 'le:3600',
                          'le:inf'],
                         [counts.bucket_field(s)
                          for s in (0, 1, 3, 5, 3600, 3601)])

    def test_counted_of_a_stores_fields(self):
        found = counts.Counted.of_fields({
            'le:2': b'3', 'le:inf': '1', 'sum': 7000, 'count': 4,
            'early': None, 'dead_lettered': 2, 'expired_backoff': b'5'})
        self.assertEqual(3, found.buckets[2])
        self.assertEqual(1, found.buckets[None])
        self.assertEqual(0, found.buckets[0])
        self.assertEqual((7000, 4, 0, 0, 2, 5), found[1:])
