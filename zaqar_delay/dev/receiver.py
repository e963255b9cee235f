"""A webhook receiver on loopback for ``zaqar-delay-devserver``: the
subscriber of its example, which prints each push it gets.

Each POST is answered 204 and written as one line, ``<local time> push
to <queue>: <JSON body>``, to ``out`` (the terminal) and appended to
``log_path``.
"""

import http.server
import json
import threading
import time


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


class Receiver:
    """An HTTP server on a free port of 127.0.0.1, in a thread; ``url``
    is the subscriber URL to give Zaqar."""

    def __init__(self, log_path, out):
        self.log_path = log_path
        self.out = out
        self._lock = threading.Lock()
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):

            def do_POST(self):
                size = int(self.headers.get('Content-Length') or 0)
                owner.got(self.rfile.read(size))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = _Server(('127.0.0.1', 0), Handler)
        self.url = 'http://127.0.0.1:%d/hook' % self.server.server_port
        threading.Thread(target=self.server.serve_forever,
                         daemon=True).start()

    def got(self, data):
        """Write the line of one push whose body is ``data``."""
        try:
            body = json.loads(data)
            text = json.dumps(body, sort_keys=True)
            queue = body.get('queue_name', '?')
        except (ValueError, AttributeError):
            text, queue = data.decode('utf-8', 'replace'), '?'
        line = '%s push to %s: %s\n' % (time.strftime('%H:%M:%S'), queue,
                                        text)
        with self._lock:
            self.out.write(line)
            self.out.flush()
            with open(self.log_path, 'a') as log:
                log.write(line)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
