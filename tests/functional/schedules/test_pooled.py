"""Schedules in a pooled deployment behave as doc/source/schedules.rst
says: Zaqar's pool catalog writes queue metadata past the pool driver's
stages, so ``_schedules`` is neither checked nor indexed, and no tick
fires. A real pooled zaqar-server with one ``redis.delay`` pool."""

import json
import urllib.error
import urllib.request
import uuid

import redis
import testtools

from tests.fixtures import zaqar_server
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import schedules as redis_schedules

PROJECT = 'p.1:pooled'


class PooledSchedulesTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        options = zaqar_server.pooled_catalog()
        options['delay_push'] = {'dispatch_in_server': True}
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

    def request(self, method, path, body=None):
        req = urllib.request.Request(
            '%s/v2/queues/%s' % (self.stack.url, path), method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={'Client-ID': str(uuid.uuid4()),
                     'X-Project-ID': PROJECT,
                     'Content-Type': 'application/json'})
        try:
            with urllib.request.urlopen(req, timeout=30) as reply:
                text = reply.read()
                return reply.status, json.loads(text) if text else None
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()

    def test_schedules_are_neither_checked_nor_indexed(self):
        bad = [{'name': 'n', 'every': 0, 'body': 1}]
        self.assertEqual(201, self.request('PUT', 'pooled.bad', {
            '_schedules': bad})[0])
        good = [{'name': 'n', 'every': 1, 'body': 1}]
        self.assertEqual(201, self.request('PUT', 'pooled.good', {
            '_schedules': good})[0])
        status, body = self.request('GET', 'pooled.good')
        self.assertEqual((200, good), (status, body['_schedules']))
        # The queue lives in the pool (its stats come from there), but
        # the pool's schedule index never heard of it.
        status, stats = self.request('GET', 'pooled.good/stats')
        self.assertEqual(200, status)
        self.assertIn('messages', stats)
        self.assertNotIn('next_tick', stats)
        self.assertIsNone(self.pool.zscore(
            keys.SCHEDULES, redis_schedules.member('pooled.good', PROJECT)))
