"""``[delay] redis_server_clock``: hosts judge time by the redis
server's clock, not their own."""

import time

from oslo_utils import timeutils

from tests.common import behaviour
from tests.fixtures import redis_store


class RedisClockTest(behaviour.Helpers, redis_store.DelayTestBase):

    def server_clock(self):
        self.conf.set_override('redis_server_clock', True, group='delay')

    def test_a_host_clock_ahead_delivers_early_by_default(self):
        (mid,) = self.post(60)
        timeutils.advance_time_seconds(120)     # a host two minutes ahead
        self.assertEqual([mid], self.claim()[1])

    def test_with_the_server_clock_a_host_ahead_delivers_nothing_early(self):
        self.server_clock()
        (mid,) = self.post(60)
        timeutils.advance_time_seconds(120)
        self.assertEqual([], self.claim()[1])
        counts = self.stats_of(self.queue, behaviour.PROJECT)
        self.assertEqual(1, counts['delayed'])
        self.assertEqual(mid, self.list_ids(include_delayed=True)[0][0])
        self.assertEqual([], self.list_ids()[0])

    def test_with_the_server_clock_messages_come_due_by_it(self):
        self.server_clock()
        (mid,) = self.post(1)
        time.sleep(2.1)         # the host's (frozen) clock does not move
        claim_id, ids = self.claim(ttl=1)
        self.assertEqual([mid], ids)
        time.sleep(2.1)         # and the claim ends by the server's too
        self.assertEqual([mid], self.claim()[1])

    def test_dispatchers_read_the_servers_clock(self):
        timeutils.advance_time_seconds(3600)
        self.server_clock()
        self.assertLess(abs(self.driver.clock() - time.time()), 60)
        self.assertLess(abs(self.driver.now() - time.time()), 60)
        self.conf.clear_override('redis_server_clock', group='delay')
        self.assertEqual(timeutils.utcnow_ts(), self.driver.now())
