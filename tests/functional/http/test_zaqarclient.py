"""The python-zaqarclient suite on a zaqar-server with ``redis.delay``
and with ``mongodb.delay`` (``swift.delay``: tests/functional/storage/swift).
"""

import testtools

from tests.common import zaqarclient
from tests.fixtures import services


class RedisDelayZaqarClientTest(zaqarclient.ZaqarClientTests,
                                testtools.TestCase):
    store = 'redis.delay'


class MongoDelayZaqarClientTest(zaqarclient.ZaqarClientTests,
                                testtools.TestCase):
    store = 'mongodb.delay'

    @classmethod
    def stack_options(cls):
        return {'mongodb_url': services.mongo_server().url}
