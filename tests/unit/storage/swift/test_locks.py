import datetime
import time

from oslo_utils import timeutils
import swiftclient
import testtools

from tests.unit.storage.swift import test_objects
from zaqar_delay.storage.swift import locks


class LastingTest(testtools.TestCase):

    def at(self, seconds):
        timeutils.set_time_override(datetime.datetime.fromtimestamp(
            seconds, tz=datetime.timezone.utc).replace(tzinfo=None))
        self.addCleanup(timeutils.clear_time_override)

    def test_a_claim_lasts_until_half_its_ttl_is_left(self):
        lasts = locks.lasting(60, 1000060)
        self.at(1000000)
        self.assertTrue(lasts())
        self.at(1000029.9)
        self.assertTrue(lasts())
        self.at(1000030)
        self.assertFalse(lasts())
        self.at(1000061)
        self.assertFalse(lasts())


class CreateTest(testtools.TestCase):
    """A create-only write that Swift refuses for its X-Delete-At."""

    def test_an_end_already_past_is_not_taken(self):
        client = test_objects.Client(refusals=2)
        self.assertFalse(locks.create(client, 'box', 'name', b'bid',
                                      time.time() - 1))
        self.assertEqual(2, len(client.sent))

    def test_a_refusal_of_a_live_end_or_another_error_is_raised(self):
        client = test_objects.Client(refusals=2)
        self.assertRaises(swiftclient.ClientException, locks.create,
                          client, 'box', 'name', b'bid', time.time() + 60)
        client = test_objects.Client(refusals=1, status=503)
        self.assertRaises(swiftclient.ClientException, locks.create,
                          client, 'box', 'name', b'bid', time.time() - 1)
