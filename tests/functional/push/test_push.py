"""Pushes to a webhook at the due time, on ``redis.delay`` and
``mongodb.delay`` (``tests/common/push_delivery.py``; swift's are with
the other swift tests)."""

import testtools

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
