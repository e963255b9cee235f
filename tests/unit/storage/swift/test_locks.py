import datetime

from oslo_utils import timeutils
import testtools

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
