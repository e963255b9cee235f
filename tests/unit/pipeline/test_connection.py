"""The poster's kept-alive connection, against servers on loopback."""

import socket
import threading

import testtools

from zaqar_delay import errors
from zaqar_delay.pipeline import connection


class OneReplyServer:
    """Answers one request per connection, then closes it without saying
    so (as a server whose keep-alive timeout passed): the client's next
    request on that connection finds it closed."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(('127.0.0.1', 0))
        self.sock.listen(8)
        self.url = 'http://127.0.0.1:%d/base/' % self.sock.getsockname()[1]
        self.paths, self.connections = [], 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            data = b''
            while b'\r\n\r\n' not in data:
                data += conn.recv(65536)
            head, body = data.split(b'\r\n\r\n', 1)
            length = [int(line.split(b':')[1]) for line in head.split(b'\r\n')
                      if line.lower().startswith(b'content-length')]
            while length and len(body) < length[0]:
                body += conn.recv(65536)
            self.paths.append(head.split(b' ')[1].decode())
            reply = b'{"ok": true}'
            conn.sendall(b'HTTP/1.1 201 Created\r\nContent-Length: %d\r\n'
                         b'\r\n%s' % (len(reply), reply))
            conn.shutdown(socket.SHUT_RDWR)
            conn.close()

    def stop(self):
        self.sock.close()


class ConnectionTest(testtools.TestCase):

    def test_a_connection_the_server_closed_is_opened_again(self):
        server = OneReplyServer()
        self.addCleanup(server.stop)
        conn = connection.Connection(server.url, timeout=5)
        self.addCleanup(conn.close)
        for n in range(3):
            reply = conn.request('POST', '/v2/queues/q/messages',
                                 '{"messages": [%d]}' % n)
            self.assertEqual(201, reply.status_code)
            self.assertTrue(reply.ok)
            self.assertEqual({'ok': True}, reply.json())
        self.assertEqual(['/base/v2/queues/q/messages'] * 3, server.paths)
        self.assertEqual(3, server.connections)

    def test_no_server_is_a_failure_named_by_its_cause(self):
        sock = socket.socket()
        sock.bind(('127.0.0.1', 0))
        port = sock.getsockname()[1]
        sock.close()
        conn = connection.Connection('http://127.0.0.1:%d' % port, 5)
        failure = self.assertRaises(errors.NoReply, conn.request,
                                    'GET', '/v2/queues/q')
        self.assertEqual('ConnectionRefusedError', failure.kind)

    def test_only_http_and_https_urls(self):
        self.assertRaises(ValueError, connection.Connection,
                          'ftp://127.0.0.1/', 5)
        conn = connection.Connection('https://zaqar.example.com', 5)
        self.assertEqual(443, conn._make().port)
