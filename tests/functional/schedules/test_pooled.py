"""Schedules in a pooled deployment: ``_schedules`` is checked and
indexed in the pool that holds the queue (the pooled metadata check in
front of Zaqar's pool catalog), and the in-server dispatcher ticks it.
A real pooled zaqar-server with one ``redis.delay`` pool."""

import json
import time
import urllib.error
import urllib.request
import uuid

import redis
import testtools

from tests.fixtures import zaqar_server
from zaqar_delay import pending
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import schedules as redis_schedules

PROJECT = 'p.1:pooled'


class PooledSchedulesTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        options = zaqar_server.pooled_catalog()
        options['delay_push'] = {'dispatch_in_server': True}
        # The notifier stage starts the pools' in-server dispatchers.
        options['storage'] = {'message_pipeline': pending.STAGE}
        self.stack = zaqar_server.ZaqarServer(options=options).start()
        self.addCleanup(self.stack.cleanup)
        store = self.stack.sections('wsgi', self.stack.port)[
            'drivers:message_store:redis']
        reply = zaqar_server.add_pool(
            self.stack.url, 'one',
            'redis.delay://' + store['uri'].split('://', 1)[1], {})
        self.assertEqual(201, reply.status_code, reply.text)
        self.pool = redis.Redis.from_url(
            store['uri'].split('?', 1)[0] + '/0')

    def request(self, method, path, body=None,
                content_type='application/json'):
        req = urllib.request.Request(
            '%s/v2/queues/%s' % (self.stack.url, path), method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={'Client-ID': str(uuid.uuid4()),
                     'X-Project-ID': PROJECT,
                     'Content-Type': content_type})
        try:
            with urllib.request.urlopen(req, timeout=30) as reply:
                text = reply.read()
                return reply.status, json.loads(text) if text else None
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()

    def test_bad_definitions_are_refused_with_a_400(self):
        bad = [{'name': 'n', 'every': 0, 'body': 1}]
        status, body = self.request('PUT', 'pooled.bad', {'_schedules': bad})
        self.assertEqual(400, status, body)
        self.assertIn(b'every', body)
        self.assertIsNone(self.pool.zscore(
            keys.SCHEDULES, redis_schedules.member('pooled.bad', PROJECT)))
        self.assertEqual(201, self.request('PUT', 'pooled.ok', {})[0])
        status, body = self.request(
            'PATCH', 'pooled.ok',
            [{'op': 'add', 'path': '/metadata/_schedules', 'value': bad}],
            'application/openstack-messaging-v2.0-json-patch')
        self.assertEqual(400, status, body)

    def test_a_schedule_is_indexed_in_its_pool_and_ticks(self):
        good = [{'name': 'n', 'every': 1, 'body': {'tick': True}}]
        self.assertEqual(201, self.request('PUT', 'pooled.good', {
            '_schedules': good})[0])
        self.assertIsNotNone(self.pool.zscore(
            keys.SCHEDULES, redis_schedules.member('pooled.good', PROJECT)))
        # The in-server dispatchers read the pool list every 30 s: the
        # pool added in setUp may be seen that late.
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            status, listed = self.request(
                'GET', 'pooled.good/messages?echo=true')
            if status == 200 and listed and listed['messages']:
                break
            time.sleep(0.5)
        else:
            self.fail('no tick was posted in 90 s')
        body = listed['messages'][0]['body']
        self.assertEqual(({'tick': True}, 'n'),
                         (body['body'], body['schedule']))
        status, stats = self.request('GET', 'pooled.good/stats')
        self.assertEqual(200, status)
        self.assertIn('next_tick', stats)
