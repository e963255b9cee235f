"""A post whose store did not acknowledge it, through wsgi.delay: the
503 says the messages may be stored, and an idempotency key makes the
retry safe."""

import uuid

import testtools
from zaqar.storage import pipeline

from tests.common import waiting_control
from tests.fixtures import storage
from tests.fixtures import zaqar_server
from zaqar_delay.storage.redis import control
from zaqar_delay.storage.redis import driver

PROJECT = 'tenant.a'
# The server's stores (``zaqar_delay.dev.stack``), waiting for no replica.
UNWAITED = """
[drivers:message_store:redis]
uri = redis://127.0.0.1:{port}?dbid=0
[drivers:management_store:redis]
uri = redis://127.0.0.1:{port}?dbid=1
"""


class UnacknowledgedPostTest(testtools.TestCase):
    """A redis.delay store that asks for a replica it does not have:
    every write is made on the primary, then answered 503."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.stack = zaqar_server.ZaqarServer(wsgi_delay=True, options={
            'drivers:message_store:redis.delay': {
                'wait_replicas': 1, 'wait_timeout_ms': 50}}).start()

    @classmethod
    def tearDownClass(cls):
        cls.stack.cleanup()
        super().tearDownClass()

    def test_the_503_says_the_messages_may_be_stored(self):
        api = waiting_control.Api(self.stack.url, PROJECT)
        name = 'orders.eu-' + uuid.uuid4().hex[:8]
        queue = '/queues/' + name
        # A queue's writes wait for the replica too: made, answered 503.
        status, found = api.call('put', queue, {})
        self.assertEqual(503, status, found)
        ctl, data = storage.drivers_of_text(
            UNWAITED.format(port=self.stack.redis_port),
            control.ControlDriver, driver.DataDriver)
        pipeline.DataDriver(data.conf, data, ctl).queue_controller.create(
            name, project=PROJECT)
        body = {'messages': [{'body': 'pay', 'ttl': 300,
                              'idempotency_key': 'order-1'}]}
        for _ in range(2):      # the client retries the 503
            status, found = api.call('post', queue + '/messages', body)
            self.assertEqual(503, status, found)
            self.assertIn('may have been stored', found['description'])
            self.assertIn('idempotency_key', found['description'])
        listed = api.ok('get', queue + '/messages', echo='true')
        self.assertEqual(['pay'], [m['body'] for m in listed['messages']])
