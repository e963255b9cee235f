"""The poster against a scripted HTTP server on loopback."""

import http.server
import json
import socket
import threading

import testtools

from zaqar_delay.pipeline import poster as zaqar_poster


class Script(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_POST(self):
        length = int(self.headers['Content-Length'])
        messages = json.loads(self.rfile.read(length))['messages']
        self.server.seen.append((self.path, self.headers['X-Project-ID'],
                                 messages))
        self.reply(*self.server.answer(messages))

    def do_GET(self):
        self.reply(*self.server.get(self.path))

    def reply(self, status, reply):
        data = json.dumps(reply).encode()
        # One send, so that kept-alive connections do not stall.
        self.wfile.write(b'HTTP/1.1 %d X\r\nContent-Type: application/json'
                         b'\r\nContent-Length: %d\r\n\r\n%s' % (
                             status, len(data), data))

    def log_message(self, *args):
        pass


class PosterTest(testtools.TestCase):

    def serve(self, answer, get=lambda path: (404, {})):
        server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Script)
        server.seen, server.answer, server.get = [], answer, get
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.shutdown)
        self.seen = server.seen
        return 'http://127.0.0.1:%d' % server.server_address[1]

    def rows(self, n, queue='q1', project='p1', **fields):
        base = {'project': project, 'queue': queue, 'ttl': 600,
                'delay': None, 'deliver_at': None}
        base.update(fields)
        return [dict(base, body=json.dumps({'n': i})) for i in range(n)]

    def test_batches_per_queue_within_the_limits(self):
        url = self.serve(lambda msgs: (201, {'resources': []}))
        # One post at a time: posts in input order.
        poster = zaqar_poster.Poster(url, batch_size=3, in_flight=1)
        results = list(poster(
            self.rows(7) + self.rows(2, queue='q2', project='p2')))
        self.assertEqual([3, 3, 1, 2], [len(m) for _, _, m in self.seen])
        self.assertEqual(['p1'] * 3 + ['p2'], [p for _, p, _ in self.seen])
        self.assertEqual('/v2/queues/q2/messages', self.seen[-1][0])
        self.assertEqual([{'n': i} for i in range(3)],
                         [m['body'] for m in self.seen[0][2]])
        self.assertEqual(9, sum(r['count'] for r in results
                                if r['status'] == 'posted'))

    def test_posts_are_sent_in_flight_at_once_and_all_reported(self):
        # The server holds each post until four are in flight together:
        # a poster that sends one at a time never gets an answer.
        meet = threading.Barrier(4, timeout=10)

        def answer(msgs):
            meet.wait()
            return 201, {'resources': []}
        url = self.serve(answer)
        poster = zaqar_poster.Poster(url, batch_size=5, in_flight=4)
        results = list(poster(self.rows(20)))
        self.assertEqual(4, len(self.seen))
        self.assertEqual(sorted(json.dumps({'n': i}) for i in range(20)),
                         sorted(json.dumps(m['body']) for _, _, batch in
                                self.seen for m in batch))
        self.assertEqual(20, sum(r['count'] for r in results
                                 if r['status'] == 'posted'))
        self.assertFalse(meet.broken)

    def test_byte_limit_splits_batches_and_refuses_a_huge_message(self):
        url = self.serve(lambda msgs: (201, {}))
        poster = zaqar_poster.Poster(url, batch_size=20, max_post_bytes=200)
        rows = self.rows(4) + [dict(self.rows(1)[0], body='x' * 300)]
        results = list(poster(rows))
        self.assertTrue(all(len(json.dumps({'messages': m})) <= 200
                            for _, _, m in self.seen))
        (refused,) = [r for r in results if r['status'] == 'refused']
        self.assertIn('larger than the server accepts', refused['reason'])

    def test_transient_failures_are_retried_with_backoff(self):
        answers = iter([(503, {'title': 'busy'}), (500, {}), (201, {})])
        url = self.serve(lambda msgs: next(answers))
        sleeps = []
        poster = zaqar_poster.Poster(url, backoff=0.5, sleep=sleeps.append)
        results = list(poster(self.rows(2)))
        self.assertEqual([0.5, 1.0], sleeps)
        self.assertEqual([('posted', 2)],
                         [(r['status'], r['count']) for r in results])

    def test_gives_up_and_reports_after_the_retries(self):
        url = self.serve(lambda msgs: (503, {'title': 'Service Unavailable'}))
        poster = zaqar_poster.Poster(url, retries=2, sleep=lambda s: None)
        results = list(poster(self.rows(2)))
        self.assertEqual(3, len(self.seen))
        self.assertEqual(['refused'] * 2, [r['status'] for r in results])
        self.assertIn('gave up after 3 attempts', results[0]['reason'])

    def test_a_refused_batch_is_posted_one_by_one(self):
        def answer(msgs):
            if any(m['body'] == {'n': 1} for m in msgs):
                return 400, {'title': 'Invalid API request',
                             'description': 'The TTL is too long.'}
            return 201, {}
        url = self.serve(answer)
        results = list(zaqar_poster.Poster(url)(self.rows(3)))
        self.assertEqual([3, 1, 1, 1], [len(m) for _, _, m in self.seen])
        refused = [r for r in results if r['status'] == 'refused']
        self.assertEqual(['{"n": 1}'], [r['body'] for r in refused])
        self.assertEqual('refused by the server (400): The TTL is too long.',
                         refused[0]['reason'])
        self.assertEqual(2, sum(r['count'] for r in results
                                if r['status'] == 'posted'))

    def test_deliver_at_becomes_a_delay_when_posted(self):
        url = self.serve(lambda msgs: (201, {}))
        poster = zaqar_poster.Poster(url, clock=lambda: 1000.0)
        list(poster(self.rows(1, deliver_at=1060.2) +
                    self.rows(1, deliver_at=900.0) +
                    self.rows(1, delay=5)))
        self.assertEqual([61, 0, 5], [m['delay'] for m in self.seen[0][2]])

    def test_text_bodies_that_are_not_json_stay_text(self):
        self.assertEqual('hello', zaqar_poster.body_of('hello'))
        self.assertEqual({'a': [1]}, zaqar_poster.body_of('{"a": [1]}'))

    def test_duplicates_in_a_dedup_queue_are_counted_apart(self):
        # The server answers 'old' for the value an earlier run posted
        # and one id for the value given twice in this batch.
        def answer(msgs):
            ids = {'{"n": 0}': 'old', '{"n": 1}': 'new1'}
            return 201, {'resources': [
                '/v2/queues/q1/messages/' + ids.get(json.dumps(m['body']),
                                                    'new2')
                for m in msgs]}

        def get(path):
            if path == '/v2/queues/q1':
                return 200, {'_dedup_key': 'n'}
            ages = {'old': 3600, 'new1': 0, 'new2': 0}
            ids = path.split('ids=')[1].split(',')
            return 200, {'messages': [{'id': i, 'age': ages[i]}
                                      for i in ids]}

        url = self.serve(answer, get)
        rows = self.rows(3) + [dict(self.rows(1)[0], body='{"n": 1}')]
        results = list(zaqar_poster.Poster(url)(rows))
        counts = {r['status']: r['count'] for r in results}
        self.assertEqual({'posted': 2, 'duplicate': 2}, counts)

    def test_a_queue_without_dedup_key_reads_nothing_back(self):
        gets = []
        url = self.serve(lambda msgs: (201, {'resources': ['/x/a', '/x/a']}),
                         lambda path: gets.append(path) or (200, {}))
        results = list(zaqar_poster.Poster(url)(self.rows(2)))
        self.assertEqual(['/v2/queues/q1'], gets)
        self.assertEqual([('posted', 2)],
                         [(r['status'], r['count']) for r in results])
