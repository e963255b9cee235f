"""The ``openstack messaging`` suite on ``redis.delay`` and
``mongodb.delay``. .stestr.conf runs these tests in their own worker (one
Keystone for them all).
"""

import testtools

from tests.common import cli


class RedisDelayCliTest(cli.OpenstackCliTests, testtools.TestCase):
    store = 'redis.delay'


class MongoDelayCliTest(cli.OpenstackCliTests, testtools.TestCase):
    store = 'mongodb.delay'


class RedisWaitingCliTest(cli.WaitingCommands, testtools.TestCase):
    store = 'redis.delay'
