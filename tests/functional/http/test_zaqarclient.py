"""The python-zaqarclient suite on a zaqar-server with ``redis.delay``
and with ``mongodb.delay`` (``swift.delay``: tests/functional/storage/swift).
"""

import testtools

from tests.common import zaqarclient


class RedisDelayZaqarClientTest(zaqarclient.ZaqarClientTests,
                                testtools.TestCase):
    store = 'redis.delay'


class MongoDelayZaqarClientTest(zaqarclient.ZaqarClientTests,
                                testtools.TestCase):
    store = 'mongodb.delay'
