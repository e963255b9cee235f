"""A redis-server with an append-only file (``appendfsync always``)
killed with kill -9 in the middle of a stream of posts and started
again: every acknowledged post survives, with its due time, indexed."""

import math
import threading
import time

from oslo_utils import timeutils
from zaqar.conf import drivers_management_store_redis as management_opts
from zaqar.conf import drivers_message_store_redis as message_opts

from tests.common import behaviour
from tests.fixtures import redis_store
from tests.fixtures import services
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import waiting as redis_waiting

GROUPS = (message_opts, management_opts)


class RedisRestartTest(behaviour.Helpers, redis_store.DelayTestBase):

    def make_drivers(self, conf):
        self.server = services.RedisServer(durable=True)
        self.addCleanup(self.server.stop)
        for opts in GROUPS:
            conf.register_opts(opts.ALL_OPTS, group=opts.GROUP_NAME)
            conf.set_override('uri', self.server.url, group=opts.GROUP_NAME)
        return redis_store.drivers(conf)

    def setUp(self):
        super().setUp()
        timeutils.clear_time_override()     # a real stream, real time

    def post_until(self, stop, acked, failed):
        n = 0
        while not stop.is_set():
            n += 1
            delay = 600 + n % 7 * 60
            try:
                (mid,) = self.post(delay)
            except Exception:
                failed.append(n)    # not acknowledged: may be lost
                time.sleep(0.01)
                continue
            acked[mid] = delay

    def test_every_acknowledged_post_survives_a_kill_and_restart(self):
        stop, acked, failed = threading.Event(), {}, []
        poster = threading.Thread(target=self.post_until,
                                  args=(stop, acked, failed))
        poster.start()
        try:
            while len(acked) < 50:
                time.sleep(0.05)
            before = len(acked)
            self.server.kill()
            time.sleep(0.5)
            self.server.start()
            while len(acked) < before + 50:
                time.sleep(0.05)
        finally:
            stop.set()
            poster.join(60)
        client = self.server.client
        index = keys.index(self.queue, behaviour.PROJECT)
        waiting = set(redis_waiting.ids(client, index))
        for mid, delay in acked.items():
            fields = client.hgetall(mid)
            self.assertTrue(fields, 'acknowledged %s was lost' % mid)
            created = int(fields[b'cr'])
            # Due to the millisecond: 'd' is the second it ends in.
            due = int(fields[b'dm']) / 1000
            self.assertTrue(created + delay <= due < created + delay + 1,
                            (created, delay, due))
            self.assertEqual(math.ceil(due), int(fields[b'd']))
            self.assertIn(mid, waiting)
        # Whatever else a post wrote before its reply was lost is whole:
        # every message is indexed as delayed, none is ready early.
        stored = {m.decode() for m in client.zrange(index.messages, 0, -1)}
        self.assertEqual(stored, waiting)
        self.assertEqual([], self.claim()[1])
        counts = self.stats_of(self.queue, behaviour.PROJECT)
        self.assertEqual(len(stored), counts['delayed'])
