"""The stack that ``zaqar-delay-devserver`` runs: a redis-server and a
zaqar-server on loopback (``zaqar_delay.dev.stack``)."""

import socket
import time

import requests
import testtools

from tests.fixtures import receiver
from zaqar_delay.dev import stack as dev_stack


class TakenPortTest(testtools.TestCase):

    def test_a_port_taken_before_the_server_binds_it_is_picked_again(self):
        stack = dev_stack.Stack()
        self.addCleanup(stack.cleanup)
        taken = socket.socket()
        taken.bind(('127.0.0.1', 0))
        taken.listen()
        self.addCleanup(taken.close)
        stack.port = taken.getsockname()[1]
        stack.url = 'http://127.0.0.1:%d' % stack.port
        stack.start()
        self.assertNotEqual(taken.getsockname()[1], stack.port)
        with open(stack.log_path) as log:
            self.assertIn('Address already in use', log.read())


class LogTest(testtools.TestCase):

    def test_no_upstream_traceback_at_start(self):
        # osprofiler's notifier, which Zaqar builds at each start
        # (zaqar_delay.cmd.noise), logs one without oslo.messaging.
        stack = dev_stack.Stack().start()
        self.addCleanup(stack.cleanup)
        with open(stack.log_path) as log:
            text = log.read()
        self.assertIn('Serving on host 127.0.0.1:%d' % stack.port, text)
        for word in ('osprofiler', 'Traceback', 'ERROR'):
            self.assertNotIn(word, text)


class PushTest(testtools.TestCase):

    def test_a_webhook_subscription_gets_a_delayed_message_when_due(self):
        stack = dev_stack.Stack(pushes=True).start()
        self.addCleanup(stack.cleanup)
        hook = receiver.Receiver()
        self.addCleanup(hook.stop)
        base = stack.url + '/v2/queues/reminders'
        headers = {'Client-ID': '6f5c2e8a-3b1d-4c7e-9a2f-1d8b7e6c5a43',
                   'X-Project-ID': 'demo'}
        for method, path, body in (
                ('put', '', {'_default_message_delay': 30}),
                ('post', '/subscriptions', {'subscriber': hook.url,
                                            'ttl': 3600}),
                ('post', '/messages', {'messages': [
                    {'body': 'in 2 s', 'ttl': 300, 'delay': 2}]})):
            reply = getattr(requests, method)(base + path, json=body,
                                              headers=headers, timeout=30)
            self.assertLess(reply.status_code, 300, reply.text)
        posted = time.time()
        self.assertEqual(1, hook.wait_for(1, 30))
        (at, body), = hook.got
        self.assertEqual('in 2 s', body['body'])
        self.assertGreaterEqual(at, posted + 1)     # d >= post's second + 2
