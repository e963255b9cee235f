"""A scripted Zaqar HTTP API on loopback for the poster and the schedule
job: each request is recorded and answered by a function of the test."""

import http.server
import json
import socket
import threading


class Script(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _body(self):
        length = int(self.headers.get('Content-Length') or 0)
        return json.loads(self.rfile.read(length)) if length else None

    def _record(self, body):
        self.server.requests.append((self.command, self.path,
                                     self.headers['X-Project-ID'], body))

    def do_POST(self):
        messages = self._body()['messages']
        self._record(messages)
        self.server.seen.append((self.path, self.headers['X-Project-ID'],
                                 messages))
        self.reply(*self.server.answer(messages))

    def do_GET(self):
        self._record(None)
        self.reply(*self.server.get(self.path))

    def do_PUT(self):
        body = self._body()
        self._record(body)
        self.reply(*self.server.put(self.path, body))

    def do_PATCH(self):
        self._record(self._body())
        self.reply(405, {'title': 'not here'})

    def reply(self, status, reply):
        data = b'' if status == 204 else json.dumps(reply).encode()
        # One send, so that kept-alive connections do not stall.
        self.wfile.write(b'HTTP/1.1 %d X\r\nContent-Type: application/json'
                         b'\r\nContent-Length: %d\r\n\r\n%s' % (
                             status, len(data), data))

    def log_message(self, *args):
        pass


def serve(test, answer=lambda msgs: (201, {'resources': []}),
          get=lambda path: (404, {}), put=lambda path, body: (201, {})):
    """Start a server for ``test`` (stopped at its cleanup); returns it.

    ``answer(messages)``, ``get(path)`` and ``put(path, metadata)`` give
    (status, JSON reply) of POST, GET and PUT; PATCH is refused. The
    server's ``seen`` holds (path, project, messages) of each POST,
    ``requests`` (method, path, project, JSON body) of every request;
    ``url`` is its URL.
    """
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Script)
    server.daemon_threads = True
    server.seen, server.requests = [], []
    server.answer, server.get, server.put = answer, get, put
    server.url = 'http://127.0.0.1:%d' % server.server_address[1]
    threading.Thread(target=server.serve_forever, args=(0.05,),
                     daemon=True).start()
    test.addCleanup(server.server_close)
    test.addCleanup(server.shutdown)
    return server
