"""The message dicts of ``redis.delay`` hashes are upstream's."""

import msgpack
from oslo_utils import uuidutils
import testtools
from zaqar.storage.redis import models

from zaqar_delay.storage.redis import records

NOW = 1_800_000_000


def _hash(fields=()):
    """A message hash as the post script writes it, with ``fields``."""
    hmap = {b'id': uuidutils.generate_uuid().encode(), b't': b'300',
            b'cr': b'%d' % (NOW - 5), b'e': b'%d' % (NOW + 295),
            b'u': uuidutils.generate_uuid().encode(), b'c': b'',
            b'c.e': b'0', b'c.c': b'0', b'b': msgpack.packb({'i': 1}),
            b'dm': b'%d' % ((NOW - 5) * 1000)}
    hmap.update(fields)
    return hmap


class BasicTest(testtools.TestCase):

    def assert_upstreams(self, hmap, now=NOW):
        expected = models.Message.from_hmap(hmap).to_basic(now)
        expected['age'] = max(0, expected['age'])
        found = records.basic(hmap, now)
        self.assertEqual(expected, found)
        self.assertEqual(list(expected), list(found))
        return found

    def test_a_ready_message(self):
        found = self.assert_upstreams(_hash())
        self.assertEqual(NOW - 5, found.due)

    def test_a_claimed_message_with_a_checksum_and_a_list_body(self):
        self.assert_upstreams(_hash({
            b'c': uuidutils.generate_uuid().encode(), b'c.e': b'%d' % NOW,
            b'c.c': b'3', b'cs': b'MD5:0123', b'b': msgpack.packb([1, 'x']),
            b'd': b'%d' % NOW}))

    def test_a_message_posted_after_now_by_another_clock_has_age_0(self):
        found = self.assert_upstreams(_hash({b'cr': b'%d' % (NOW + 7)}))
        self.assertEqual(0, found['age'])

    def test_a_claims_packed_reply(self):
        hmap = _hash({b'cs': b'MD5:ab'})
        values = [hmap.get(field, False)
                  for field in records.CLAIMED_FIELDS]
        [found] = records.messages(msgpack.packb([values]), NOW + 0.9)
        self.assertEqual(records.basic(hmap, NOW), found)
