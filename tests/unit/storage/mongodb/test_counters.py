"""What a ``mongodb.delay`` claim counts (storage/mongodb/counters)."""

import datetime

from bson import objectid
import testtools

from zaqar_delay import counts
from zaqar_delay.storage.mongodb import counters

CREATED = 1800000000


def doc(due):
    """A message document whose id was made at ``CREATED``."""
    when = datetime.datetime.fromtimestamp(CREATED, datetime.timezone.utc)
    return {'_id': objectid.ObjectId.from_datetime(when), 'd': due}


class ClaimedTest(testtools.TestCase):

    def test_messages_due_within_their_ids_second_are_not_delayed(self):
        # Posted without a delay: due the millisecond of the post (up to
        # 999 ms into the id's second), or, written by earlier versions,
        # the id's second itself; a document without ``d`` is due.
        docs = [doc(CREATED), doc(CREATED + 0.999), doc(None),
                doc(CREATED - 1)]
        self.assertEqual({}, counters.claimed(docs, CREATED + 5))

    def test_messages_due_a_second_or_more_later_were_delayed(self):
        # Delay 1 posted at the id's whole second; delay 1 posted 250.4
        # ms in; a whole-second due time written by earlier versions.
        docs = [doc(CREATED + 1), doc(CREATED + 1.251), doc(CREATED + 2)]
        found = counters.claimed(docs, CREATED + 2.03)
        self.assertEqual({counts.bucket_name(2000): 1,
                          counts.bucket_name(1000): 1,
                          counts.bucket_name(50): 1,
                          counts.SUM: 1030 + 779 + 30, counts.COUNT: 3},
                         found)

    def test_lateness_is_counted_to_the_millisecond(self):
        found = counters.claimed([doc(CREATED + 1.251)], CREATED + 1.256)
        self.assertEqual({counts.bucket_name(5): 1, counts.SUM: 5,
                          counts.COUNT: 1}, found)

    def test_a_claim_before_the_due_millisecond_is_early(self):
        found = counters.claimed([doc(CREATED + 1.251)], CREATED + 1.25)
        self.assertEqual({'early': 1}, found)
