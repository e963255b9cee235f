"""``swift.client.Client``'s retries, against a local HTTP server that
answers what each test scripts (Swift cannot be made to answer a 5xx
on demand)."""

import http.server
import socket
import threading
import time
import types

import swiftclient
import testtools

from zaqar_delay.storage.swift import client


class Script(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def _answer(self):
        self.rfile.read(int(self.headers.get('Content-Length') or 0))
        self.server.seen.append((self.command, self.path,
                                 self.headers.get('X-Auth-Token')))
        status = (self.server.statuses.pop(0) if self.server.statuses
                  else 200)
        body = b'' if self.command == 'HEAD' else b'done'
        self.send_response(status)
        self.send_header('Content-Length', str(len(body)))
        self.send_header('X-Delete-At', '123')
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_PUT = do_HEAD = do_DELETE = _answer

    def log_message(self, *args):
        pass


class Session:
    """The part of a keystoneauth session that Client uses."""

    def __init__(self):
        self.tokens = 0

    def get_token(self):
        return 'token-%d' % self.tokens

    def invalidate(self):
        self.tokens += 1
        return True


class Wrapper:
    """The part of upstream's client wrapper that Client uses."""

    def __init__(self, endpoint):
        self.session = Session()
        self.endpoint = endpoint


class ClientRetriesTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.server = http.server.ThreadingHTTPServer(
            ('127.0.0.1', 0), Script)
        self.server.statuses, self.server.seen = [], []
        threading.Thread(target=self.server.serve_forever,
                         daemon=True).start()
        self.addCleanup(self.server.server_close)
        self.addCleanup(self.server.shutdown)
        self.client = client.Client(Wrapper(
            'http://127.0.0.1:%d/v1/AUTH_p' % self.server.server_port))
        self.slept = []
        # The client's sleeps only: time.sleep is the whole process's, and
        # other threads sleep in loops (py4j's finalizer thread, in the
        # unit tests that run Spark), which would then spin and fill
        # self.slept until the process runs out of memory.
        self.patch(client, 'time', types.SimpleNamespace(
            sleep=self.slept.append))

    def test_a_5xx_is_tried_again_after_1_then_2_seconds(self):
        self.server.statuses = [503, 500]
        headers, body = self.client.get_object('c:q', 'o')
        self.assertEqual((b'done', '123'), (body, headers['x-delete-at']))
        self.assertEqual([1, 2], self.slept)
        self.assertEqual(['/v1/AUTH_p/c%3Aq/o'] * 3,
                         [path for _, path, _ in self.server.seen])

    def test_five_retries_then_the_error(self):
        self.server.statuses = [503] * 6
        error = self.assertRaises(swiftclient.ClientException,
                                  self.client.put_object, 'c', 'o', b'x')
        self.assertEqual(503, error.http_status)
        self.assertEqual([1, 2, 4, 8, 16], self.slept)

    def test_other_threads_still_sleep(self):
        slept = threading.Event()

        def other():
            time.sleep(0.01)
            slept.set()

        threading.Thread(target=other, daemon=True).start()
        self.assertTrue(slept.wait(30))
        self.server.statuses = [503]
        self.client.get_object('c', 'o')
        self.assertEqual([1], self.slept)

    def test_a_4xx_is_not_tried_again(self):
        self.server.statuses = [404]
        error = self.assertRaises(swiftclient.ClientException,
                                  self.client.head_object, 'c', 'o')
        self.assertEqual((404, '/v1/AUTH_p/c/o'),
                         (error.http_status, error.http_path))
        self.assertEqual([], self.slept)

    def test_a_401_gets_a_new_token_once(self):
        self.server.statuses = [401, 401]
        error = self.assertRaises(swiftclient.ClientException,
                                  self.client.delete_object, 'c', 'o')
        self.assertEqual(401, error.http_status)
        self.assertEqual(['token-0', 'token-1'],
                         [token for _, _, token in self.server.seen])
        self.assertEqual([], self.slept)

    def test_no_server_is_tried_again_then_raised(self):
        # A port bound and not listening refuses connections, and stays
        # this test's: a port just closed can be taken by another server
        # of the process (Spark's gateway in the unit tests).
        held = socket.socket()
        self.addCleanup(held.close)
        held.bind(('127.0.0.1', 0))
        self.client = client.Client(Wrapper(
            'http://127.0.0.1:%d/v1/AUTH_p' % held.getsockname()[1]))
        self.assertRaises(OSError, self.client.get_object, 'c', 'o')
        self.assertEqual([1, 2, 4, 8, 16], self.slept)
