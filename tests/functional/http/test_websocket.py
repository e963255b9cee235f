"""Posting over Zaqar's websocket transport to a delayed queue.

Zaqar's websocket endpoint drops a message's ``delay``; ``redis.delay``
applies the queue's ``_default_message_delay`` in storage, so the message
still waits.
"""

import json
import uuid

import websocket
from zaqarclient.queues import client

from tests.fixtures import zaqar_server


class WebsocketPostTest(zaqar_server.ServerTestCase):

    server_options = {'websocket': True}

    def send(self, ws, action, body):
        ws.send(json.dumps({'action': action, 'body': body, 'headers': {
            'Client-ID': str(uuid.uuid4()), 'X-Project-ID': 'p1'}}))
        return json.loads(ws.recv())

    def test_websocket_post_waits_for_the_queue_default(self):
        cli = client.Client(self.stack.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': 'p1'}}})
        queue = cli.queue('ws-delayed', force_create=True)
        queue.metadata(new_meta={'_default_message_delay': 600})

        ws = websocket.create_connection(self.stack.ws_url, timeout=10)
        self.addCleanup(ws.close)
        reply = self.send(ws, 'message_post', {
            'queue_name': 'ws-delayed',
            'messages': [{'body': 'hello', 'ttl': 3600}]})
        self.assertEqual(201, reply['headers']['status'], reply)

        stats = queue.stats['messages']
        self.assertEqual((1, 1, 0), (stats['total'], stats['delayed'],
                                     stats['free']))
        self.assertEqual([], list(queue.claim(ttl=60, grace=60)))
