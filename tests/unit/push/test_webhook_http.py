"""The lighter HTTP client of the webhook task, against a real receiver
on loopback."""

import http.server
import threading
import time
from unittest import mock

import fixtures
import requests
import testtools

from tests.fixtures import receiver
from zaqar_delay.push import webhook_http


class Redirector:
    """A server on loopback that answers every POST with a redirect."""

    def __init__(self, location):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers['Content-Length']))
                self.send_response(307)
                self.send_header('Location', location)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                                      Handler)
        self.url = 'http://127.0.0.1:%d/old' % self.server.server_port
        threading.Thread(target=self.server.serve_forever,
                         daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class PostTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.hook = receiver.Receiver()
        self.addCleanup(self.hook.stop)
        for name in ('http_proxy', 'HTTP_PROXY'):
            self.useFixture(fixtures.EnvironmentVariable(name))

    def test_posts_the_body_and_headers_and_reads_the_status(self):
        response = webhook_http.post(
            self.hook.url + '?a=1', data='{"x": "é"}',
            headers={'Content-Type': 'application/json'})
        self.assertEqual(204, response.status_code)
        self.assertTrue(response)
        self.assertEqual([{'x': 'é'}], self.hook.bodies())

    def test_an_error_status_is_false_as_in_requests(self):
        self.hook.status = 503
        response = webhook_http.post(self.hook.url, data='{}')
        self.assertEqual(503, response.status_code)
        self.assertFalse(response)

    def test_a_refused_connection_raises_requests_connection_error(self):
        url = self.hook.url
        self.hook.stop()
        self.assertRaises(requests.ConnectionError, webhook_http.post, url,
                          data='{}')

    def test_no_answer_within_the_read_timeout_raises_timeout(self):
        self.hook.stall = 5
        for light in (True, False):
            started = time.monotonic()
            self.assertRaises(requests.Timeout, webhook_http.post,
                              self.hook.url, data='{}', timeout=(1, 0.3),
                              light=light)
            self.assertLess(time.monotonic() - started, 3)

    def test_a_redirect_is_followed_by_requests(self):
        redirector = Redirector(self.hook.url)
        self.addCleanup(redirector.stop)
        response = webhook_http.post(
            redirector.url, data='{"n": 1}',
            headers={'Content-Type': 'application/json'})
        self.assertEqual(204, response.status_code)
        self.assertEqual([{'n': 1}], self.hook.bodies())

    def test_https_credentials_and_proxies_are_left_to_requests(self):
        with mock.patch.object(requests, 'post') as post:
            webhook_http.post('https://example.invalid/hook', data='{}')
            webhook_http.post('http://u:p@127.0.0.1:1/hook', data='{}')
            self.useFixture(fixtures.EnvironmentVariable(
                'http_proxy', 'http://127.0.0.1:3128'))
            webhook_http.post('http://example.invalid/hook', data='{}')
        self.assertEqual(3, post.call_count)
        self.assertEqual([], self.hook.bodies())
