"""The poster against a scripted HTTP server on loopback."""

import json
import threading

import testtools

from tests.unit.pipeline import zaqar_stub
from zaqar_delay.pipeline import poster as zaqar_poster


class PosterTest(testtools.TestCase):

    def serve(self, answer, get=lambda path: (404, {}),
              put=lambda path, body: (201, {})):
        server = zaqar_stub.serve(self, answer, get, put)
        self.seen, self.requests = server.seen, server.requests
        return server.url

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

        url = self.serve(answer, get, put=lambda path, body: (204, {}))
        rows = self.rows(3) + [dict(self.rows(1)[0], body='{"n": 1}')]
        results = list(zaqar_poster.Poster(url)(rows))
        counts = {r['status']: r['count'] for r in results}
        self.assertEqual({'posted': 2, 'duplicate': 2}, counts)

    def test_a_queue_without_dedup_key_reads_nothing_back(self):
        gets = []
        url = self.serve(lambda msgs: (201, {'resources': ['/x/a', '/x/a']}),
                         lambda path: gets.append(path) or (200, {}),
                         lambda path, body: (204, {}))
        results = list(zaqar_poster.Poster(url)(self.rows(2)))
        self.assertEqual(['/v2/queues/q1'], gets)
        self.assertEqual([('posted', 2)],
                         [(r['status'], r['count']) for r in results])

    def test_a_missing_queue_is_made_a_delayed_queue_once(self):
        url = self.serve(lambda msgs: (201, {'resources': []}))
        poster = zaqar_poster.Poster(url, batch_size=2, in_flight=4,
                                     queue_delay=7)
        results = list(poster(self.rows(5, delay=30) + self.rows(1)))
        # One PUT, before the first post; then 3 posts.
        self.assertEqual(
            [('PUT', '/v2/queues/q1', 'p1', {'_default_message_delay': 7})],
            self.requests[:1])
        self.assertEqual(['POST'] * 3, [r[0] for r in self.requests[1:]])
        self.assertEqual([30] * 5 + [None], sorted(
            (m.get('delay') for _, _, batch in self.seen for m in batch),
            key=lambda delay: delay is None))
        self.assertEqual(6, sum(r['count'] for r in results
                                if r['status'] == 'posted'))

    def test_no_delayed_row_goes_into_a_queue_without_a_default(self):
        # The queue is there (the PUT changes nothing), without a default.
        url = self.serve(lambda msgs: (201, {'resources': []}),
                         lambda path: (200, {'_default_message_delay': 0}),
                         lambda path, body: (204, {}))
        poster = zaqar_poster.Poster(url, clock=lambda: 1000.0)
        rows = (self.rows(1, delay=30) + self.rows(1, deliver_at=1060.0) +
                self.rows(1) + self.rows(1, delay=0) +
                self.rows(1, deliver_at=900.0))
        results = list(poster(rows))
        refused = [r for r in results if r['status'] == 'refused']
        self.assertEqual(['30', None], [r['delay'] for r in refused])
        for r in refused:
            self.assertEqual(
                'queue q1 has no _default_message_delay, so Zaqar would '
                'drop this message\'s delay (%d s) and deliver it at once: '
                'set _default_message_delay on the queue (1 or more) and '
                'run the job again' % (30 if r['delay'] else 60),
                r['reason'])
        # The others are posted now; the queue's metadata is not touched.
        self.assertEqual([None, 0, 0], [m.get('delay') for _, _, batch
                                        in self.seen for m in batch])
        self.assertEqual(['PUT', 'GET', 'POST'],
                         [r[0] for r in self.requests])

    def test_a_queue_made_meanwhile_without_a_default_takes_no_delay(self):
        # The PUT answers 204: someone else made the queue, without a
        # default delay.
        url = self.serve(lambda msgs: (201, {'resources': []}),
                         lambda path: (200, {'_default_message_delay': None}),
                         lambda path, body: (204, {}))
        results = list(zaqar_poster.Poster(url)(
            self.rows(1, delay=5) + self.rows(1)))
        self.assertEqual(['PUT', 'GET', 'POST'],
                         [r[0] for r in self.requests])
        self.assertEqual(['refused', 'posted'],
                         [r['status'] for r in results])
        self.assertIn('has no _default_message_delay', results[0]['reason'])

    def test_a_queue_made_meanwhile_as_a_delayed_one_is_posted_into(self):
        # Another partition of the job made it first.
        url = self.serve(lambda msgs: (201, {'resources': []}),
                         lambda path: (200, {'_default_message_delay': 1}),
                         lambda path, body: (204, {}))
        results = list(zaqar_poster.Poster(url)(self.rows(2, delay=5)))
        self.assertEqual([('posted', 2)],
                         [(r['status'], r['count']) for r in results])

    def test_rows_of_a_queue_that_cannot_be_made_are_refused(self):
        url = self.serve(
            lambda msgs: (201, {'resources': []}),
            put=lambda path, body: (400, {
                'title': 'Invalid API request',
                'description': 'The TTL can not exceed 10 seconds'}))
        results = list(zaqar_poster.Poster(url, queue_delay=30)(
            self.rows(2)))
        self.assertEqual([], self.seen)
        self.assertEqual(
            ['could not create queue q1: refused by the server (400): The '
             'TTL can not exceed 10 seconds'] * 2,
            [r['reason'] for r in results])

    def test_rows_of_a_queue_that_cannot_be_read_are_refused(self):
        url = self.serve(lambda msgs: (201, {'resources': []}),
                         lambda path: (503, {'title': 'busy'}),
                         lambda path, body: (204, {}))
        results = list(zaqar_poster.Poster(url, retries=1,
                                           sleep=lambda s: None)(
            self.rows(2)))
        self.assertEqual([], self.seen)
        self.assertEqual(['PUT', 'GET', 'GET'],
                         [r[0] for r in self.requests])
        self.assertEqual(
            ['could not read queue q1: gave up after 2 attempts: refused '
             'by the server (503): busy'] * 2,
            [r['reason'] for r in results])
