"""A zaqar-server with ``redis.delay`` or ``mongodb.delay`` killed with
kill -9 in the middle of a stream of posts and claims from several
clients, and started again (``tests/common/outage.py``; ``swift.delay``:
tests/functional/storage/swift/test_outages.py)."""

import testtools

from tests.common import outage
from tests.fixtures import zaqar_server


class ServerKill(zaqar_server.StoreServer, outage.OutageTests):

    def setUp(self):
        super().setUp()
        self.stack = self.start_server()
        self.addCleanup(self.stack.cleanup)

    def url(self):
        return self.stack.url

    def disrupt(self):
        self.stack.kill()
        self.stack.restart()


class RedisDelayServerKillTest(ServerKill, testtools.TestCase):
    store = 'redis.delay'


class MongoDelayServerKillTest(ServerKill, testtools.TestCase):
    store = 'mongodb.delay'
