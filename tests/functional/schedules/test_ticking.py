"""Schedules post one message per tick through a real zaqar-server, with
three dispatchers racing, across a kill -9 of all of them, and as a
schedule changes and goes (tox -e slow: each test runs 20-40 s)."""

import testtools

from tests.common import schedules


class RedisTickingTest(schedules.ScheduleTests, testtools.TestCase):
    store = 'redis.delay'


class MongodbTickingTest(schedules.ScheduleTests, testtools.TestCase):
    store = 'mongodb.delay'


class RedisInServerTickingTest(schedules.InServerTests, testtools.TestCase):
    store = 'redis.delay'


class MongodbInServerTickingTest(schedules.InServerTests,
                                 testtools.TestCase):
    store = 'mongodb.delay'


class SwiftTickingTest(schedules.ScheduleTests, testtools.TestCase):
    store = 'swift.delay'
