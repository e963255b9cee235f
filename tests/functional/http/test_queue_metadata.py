"""A queue create with delay metadata the drivers refuse gets a 400 on
both of Zaqar's transports, and the server's log says what was
refused; every bad value of every key the drivers read is refused at
PUT and PATCH on redis.delay, mongodb.delay and a pooled server
(swift.delay: tests/functional/storage/swift/test_queue_metadata.py).
"""

import json
import urllib.error
import urllib.request
import uuid

import redis
import testtools
import websocket

from tests.common import queue_metadata
from tests.fixtures import services
from tests.fixtures import zaqar_server

BAD = {'_retry_backoff': {'initial': -1}}
WHY = '_retry_backoff.initial must be a number of seconds above 0'


class QueueMetadataRefusedTest(zaqar_server.ServerTestCase):

    server_options = {'websocket': True}

    def headers(self):
        return {'Client-ID': str(uuid.uuid4()), 'X-Project-ID': 'p.1:x',
                'Content-Type': 'application/json'}

    def put(self, name, metadata):
        req = urllib.request.Request(
            '%s/v2/queues/%s' % (self.stack.url, name), method='PUT',
            data=json.dumps(metadata).encode(), headers=self.headers())
        try:
            with urllib.request.urlopen(req, timeout=10) as reply:
                return reply.status, reply.read()
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def log(self):
        with open(self.stack.log_path, errors='replace') as f:
            return f.read()

    def test_wsgi_put_is_a_400_that_says_why(self):
        status, body = self.put('orders.eu-wsgi', BAD)
        self.assertEqual(400, status, body)
        self.assertIn('Queue "orders.eu-wsgi" not created: ' + WHY,
                      body['description'])
        # Zaqar logs it as a missing flavor whose cause is the refusal.
        self.assertIn('zaqar_delay.errors.QueueMetadataRefused: Queue '
                      '"orders.eu-wsgi" not created: ' + WHY, self.log())
        # Good metadata creates the queue.
        self.assertEqual(201, self.put('orders.eu-wsgi', {
            '_retry_backoff': {'initial': 5}})[0])

    def test_websocket_queue_create_is_a_400_that_says_why(self):
        ws = websocket.create_connection(self.stack.ws_url, timeout=10)
        self.addCleanup(ws.close)
        ws.send(json.dumps({'action': 'queue_create', 'headers':
                            self.headers(), 'body': {
                                'queue_name': 'orders.eu-ws',
                                'metadata': BAD}}))
        reply = json.loads(ws.recv())
        self.assertEqual(400, reply['headers']['status'], reply)
        self.assertIn('Queue "orders.eu-ws" not created: ' + WHY,
                      reply['body']['exception'])
        self.assertNotIn('Queue orders.eu-ws could not be created',
                         self.log())


class RedisDelayBadMetadataTest(queue_metadata.BadMetadataTests,
                                zaqar_server.ServerTestCase):

    server_options = {'max_delay': queue_metadata.MAX_DELAY}

    def test_a_refused_put_leaves_no_queue_in_the_store(self):
        # The queue stage that registers a queue in the store
        # (upstream's msgset_index: metrics series, counts) runs after
        # the check, never for a refused queue.
        client = redis.Redis(port=self.stack.redis_port)
        self.assertEqual(201, self.request('PUT', 'good.put', {})[0])
        registered = client.zcard('msgset_index')
        self.assertGreater(registered, 0)
        status, body = self.request('PUT', 'bad.put',
                                    {'_retry_backoff': {'initial': 0}})
        self.assertEqual(400, status, body)
        self.assertEqual(registered, client.zcard('msgset_index'))


class MongoDelayBadMetadataTest(queue_metadata.BadMetadataTests,
                                testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.stack = zaqar_server.ZaqarServer(
            message_store='mongodb.delay', max_delay=queue_metadata.MAX_DELAY,
            mongodb_url=services.mongo_server().url).start()

    @classmethod
    def tearDownClass(cls):
        cls.stack.cleanup()
        super().tearDownClass()


class PooledBadMetadataTest(queue_metadata.BadMetadataTests,
                            testtools.TestCase):
    """A pooled server whose one pool is a redis.delay store: the check
    in front of Zaqar's pool catalog."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.stack = zaqar_server.ZaqarServer(
            max_delay=queue_metadata.MAX_DELAY,
            options=zaqar_server.pooled_catalog()).start()
        store = cls.stack.sections('wsgi', cls.stack.port)[
            'drivers:message_store:redis']
        reply = zaqar_server.add_pool(
            cls.stack.url, 'one',
            'redis.delay://' + store['uri'].split('://', 1)[1], {})
        if reply.status_code != 201:
            cls.stack.cleanup()
            raise RuntimeError('pool not added: %s' % reply.text)

    @classmethod
    def tearDownClass(cls):
        cls.stack.cleanup()
        super().tearDownClass()
