"""Pushes across a Sentinel failover: a zaqar-server with the notifier
stage and its dispatcher thread (or two ``zaqar-delay-dispatcher``
processes), ``redis.delay`` on a Sentinel URI with ``wait_replicas =
1``; the primary is killed while delayed messages wait for their
pushes."""

import time

import testtools
from testtools import content

from tests.common import push_delivery
from tests.fixtures import logs
from tests.fixtures import redis_sentinel
from zaqar_delay import opts


class SentinelPushTest(push_delivery.PushTest, testtools.TestCase):
    lease = 30
    wait_replicas = 1

    def setUp(self):
        self.group = redis_sentinel.SentinelGroup(replicas=1, sentinels=3)
        try:
            super().setUp()
        finally:
            self.addCleanup(self.group.stop)
            logs.on_failure(self, self.group.logs)

    def store_options(self):
        return {'drivers:message_store:redis': {
                    'uri': self.group.uri(dbid=0, socket_timeout=2),
                    'max_reconnect_attempts': 3, 'reconnect_sleep': 0.1},
                opts.REDIS_GROUP: {'wait_replicas': self.wait_replicas,
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
        # As the sentinels would. They did it some 10 s after they saw it
        # back, but twice, in runs beside other tests, not within 60 s
        # (cause not found). The pushes are the subject here; Sentinel's
        # own rejoin is in tests/functional/http/test_failover.
        primary.client.replicaof('127.0.0.1', replica.port)
        self.group.wait_replica_of(primary, replica, same_data=False)
        rejoined = time.time() - killed
        self.receiver.wait_for(len(due), 120)
        time.sleep(2)   # a repeated push would come now
        got = self.arrivals()
        early = {b: (got[b], due[b]) for b in got if min(got[b]) < due[b]}
        self.assertEqual({}, early)
        lost = len(set(due) - set(got))
        repeated = sum(len(times) - 1 for times in got.values())
        late = max([got[b][0] - due[b] for b in got], default=0)
        report = ('wait_replicas=%d: %d pushes, %d lost, %d repeated, latest '
                  '%.2f s after due; old primary a replica %.2f s after the '
                  'kill' % (self.wait_replicas, len(due), lost, repeated,
                            late, rejoined))
        self.addDetail('pushes', content.text_content(report))
        print('pushes across a failover: ' + report)
        self.check(lost)

    def check(self, lost):
        self.assertEqual(0, lost, 'pushes lost')


class SentinelDispatcherProcessesPushTest(SentinelPushTest):
    in_server = False

    def start_dispatchers(self):
        self.dispatcher()
        self.dispatcher()


class NoWaitSentinelPushTest(SentinelPushTest):
    """Zaqar's acknowledgement (the primary's alone): the pushes of
    posts the replica had not received are lost with the posts; the
    test counts them."""
    wait_replicas = 0

    def check(self, lost):
        pass    # counted and reported; nothing early was asserted above
