"""Pushes to a webhook at the due time, on ``redis.delay`` and
``mongodb.delay`` (``tests/common/push_delivery.py``; swift's are with
the other swift tests)."""

import time

import testtools

from tests.common import due_time
from tests.common import push_delivery as delivery
from tests.common import push_faults as faults


class RedisInServerPushTest(delivery.InServerPushes, testtools.TestCase):
    pass


class RedisDispatcherProcessTest(delivery.DispatcherProcesses,
                                 testtools.TestCase):
    pass


class MongoInServerPushTest(delivery.InServerPushes, testtools.TestCase):
    store = 'mongodb.delay'


class MongoDispatcherProcessTest(delivery.DispatcherProcesses,
                                 testtools.TestCase):
    store = 'mongodb.delay'


class RedisNeverEarlyTest(due_time.NeverEarly, testtools.TestCase):
    pass


class MongoNeverEarlyTest(due_time.NeverEarly, testtools.TestCase):
    store = 'mongodb.delay'


class RedisDispatcherDeathTest(delivery.DispatcherDeath, testtools.TestCase):
    pass


class MongoDispatcherDeathTest(delivery.DispatcherDeath, testtools.TestCase):
    store = 'mongodb.delay'


class RedisDeathMidRetryTest(delivery.DispatcherDeathMidRetry,
                             testtools.TestCase):
    pass


class MongoDeathMidRetryTest(delivery.DispatcherDeathMidRetry,
                             testtools.TestCase):
    store = 'mongodb.delay'


class RedisPooledPushTest(delivery.InServerPushes, testtools.TestCase):
    pooled = True


class RedisPooledDispatcherTest(delivery.DispatcherProcesses,
                                testtools.TestCase):
    pooled = True


class MongoPooledPushTest(delivery.InServerPushes, testtools.TestCase):
    store = 'mongodb.delay'
    pooled = True


class RedisSubscriberFaultsTest(faults.SubscriberFaults,
                                testtools.TestCase):
    pass


class MongoSubscriberFaultsTest(faults.SubscriberFaults,
                                testtools.TestCase):
    store = 'mongodb.delay'


class RedisPooledSubscriberFaultsTest(faults.SubscriberFaults,
                                      testtools.TestCase):
    pooled = True
    # Zaqar's MongoDB pool catalogue splits '<project>/<queue>' in two:
    # a project id with '/' gets a 503 from queue PUT (upstream's).
    project = 'tenant.a:c'


class RedisFailedPushesTest(faults.FailedPushes, testtools.TestCase):
    pass


class MongoFailedPushesTest(faults.FailedPushes, testtools.TestCase):
    store = 'mongodb.delay'


class RedisWakeTest(delivery.PushTest, testtools.TestCase):
    """A dispatcher process sleeping towards a push due much later is
    woken, through the store, by a post that adds an earlier one."""
    in_server = False
    push_options = {'poll_interval': 60}

    def test_an_earlier_push_wakes_a_sleeping_dispatcher(self):
        self.subscribe()
        self.post([300])
        self.dispatcher()
        # Past the dispatcher's start: it sleeps towards the push due in
        # 300 s (at most poll_interval, 60 s).
        time.sleep(3)
        due = self.post([1])
        self.assertEqual(1, self.receiver.wait_for(1, 30))
        (body,) = due
        (arrived,) = self.arrivals()[body]
        self.assertGreaterEqual(arrived, due[body])
        # Woken, not polled: far sooner than its 60 s sleep.
        self.assertLess(arrived - due[body], 20)
