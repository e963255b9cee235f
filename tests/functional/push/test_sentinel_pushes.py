"""Pushes across a Sentinel failover: a zaqar-server with the notifier
stage and its dispatcher thread (or two ``zaqar-delay-dispatcher``
processes), ``redis.delay`` on a Sentinel URI with ``wait_replicas =
1``; the primary is killed while delayed messages wait for their
pushes."""

import time

import testtools
from testtools import content

from tests.common import push_delivery
from tests.fixtures import redis_sentinel
from zaqar_delay import opts


class SentinelPushTest(push_delivery.PushTest, testtools.TestCase):
    lease = 30

    def setUp(self):
        self.group = redis_sentinel.SentinelGroup(replicas=1, sentinels=3)
        try:
            super().setUp()
        finally:
            self.addCleanup(self.group.stop)

    def store_options(self):
        return {'drivers:message_store:redis': {
                    'uri': self.group.uri(dbid=0, socket_timeout=2),
                    'max_reconnect_attempts': 3, 'reconnect_sleep': 0.1},
                opts.REDIS_GROUP: {'wait_replicas': 1,
                                   'wait_timeout_ms': 1000}}

    def start_dispatchers(self):
        """Dispatchers besides the server's own thread: none."""

    def test_acknowledged_posts_are_pushed_after_a_failover(self):
        self.subscribe()
        self.start_dispatchers()
        primary = self.group.primary()
        replica = next(s for s in self.group.servers if s is not primary)
        # The subscription is upstream's write, not waited for.
        self.group.wait_replica_of(replica, primary)
        due = {}
        for _ in range(4):
            due.update(self.post([3, 4, 5, 6, 7]))
        primary.kill()
        killed = time.time()
        self.group.wait_promoted(primary.port)
        primary.start()
        self.group.wait_replica_of(primary, replica, same_data=False)
        rejoined = time.time() - killed
        self.receiver.wait_for(len(due), 120)
        time.sleep(2)   # a repeated push would come now
        got = self.arrivals()
        self.assertEqual(set(due), set(got), 'pushes lost')
        early = {b: (got[b], due[b]) for b in due if min(got[b]) < due[b]}
        self.assertEqual({}, early)
        repeated = sum(len(times) - 1 for times in got.values())
        late = max(got[b][0] - due[b] for b in due)
        self.addDetail('pushes', content.text_content(
            '%d pushes, %d repeated, latest %.2f s after due; old primary '
            'a replica %.2f s after the kill' % (len(due), repeated, late,
                                                 rejoined)))
        print('pushes across a failover: %d, %d repeated, latest %.2f s '
              'after due, rejoined %.2f s' % (len(due), repeated, late,
                                              rejoined))


class SentinelDispatcherProcessesPushTest(SentinelPushTest):
    in_server = False

    def start_dispatchers(self):
        self.dispatcher()
        self.dispatcher()
