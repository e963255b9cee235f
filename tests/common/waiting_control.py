"""Waiting messages under the client's control, through a real
zaqar-server with the ``wsgi.delay`` transport, written once for every
store (mixed into a test class per backend: ``store``, and
``stack_options()`` for what the server needs beyond it).

Queue names and project ids have dots, as Zaqar accepts them. Most
waits are avoided: messages wait long (minutes) and are rescheduled to
now; the few real waits are short.
"""

import re
import threading
import time
import uuid

import requests
from zaqarclient.queues import client

from tests.fixtures import zaqar_server
from zaqar_delay import delay

ISO_MS = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$')
LONG = 600          # seconds a message waits when it must not come due


def iso(when):
    return delay.iso_ms(when)


class Api:
    """One project's client of Zaqar's v2 HTTP API."""

    def __init__(self, url, project, dues=True):
        self.url = url + '/v2'
        self.headers = {'Client-ID': str(uuid.uuid4()),
                        'X-Project-ID': project}
        if dues:
            self.headers['Zaqar-Delay-Due'] = 'true'

    def call(self, method, path, body=None, **params):
        reply = requests.request(method, self.url + path, json=body,
                                 params=params, headers=self.headers,
                                 timeout=30)
        return reply.status_code, (reply.json() if reply.content else None)

    def ok(self, method, path, body=None, **params):
        status, found = self.call(method, path, body, **params)
        assert status in (200, 201, 204), (method, path, status, found)
        return found


class WaitingControl(zaqar_server.StoreServer):
    project = 'tenant.a'
    other_project = 'tenant.b'

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.stack = cls.start_server(max_delay=3600, wsgi_delay=True)

    @classmethod
    def tearDownClass(cls):
        cls.stack.cleanup()
        super().tearDownClass()

    queue_metadata = {}     # more metadata of the queues made

    def setUp(self):
        super().setUp()
        self.api = Api(self.stack.url, self.project)
        self.name = 'orders.eu-' + uuid.uuid4().hex[:8]
        self.queue = '/queues/' + self.name
        self.api.ok('put', self.queue, dict(self.queue_metadata,
                                            _default_message_delay=30))

    # helpers

    def make_queue(self, prefix, **metadata):
        """A new queue's path."""
        path = '/queues/' + prefix + uuid.uuid4().hex[:8]
        self.api.ok('put', path, dict(self.queue_metadata, **metadata))
        return path

    def post(self, *messages, queue=None):
        found = self.api.ok('post', (queue or self.queue) + '/messages',
                            {'messages': [dict({'ttl': 3600, 'body': n},
                                               **m)
                                          for n, m in enumerate(messages)]})
        return [href.rsplit('/', 1)[1] for href in found['resources']]

    def listed(self, queue=None, **params):
        params = dict({'echo': 'true', 'include_delayed': 'true'}, **params)
        found = self.api.ok('get', (queue or self.queue) + '/messages',
                            **params)
        return {m['id']: m for m in (found or {}).get('messages', [])}

    def claim(self, queue=None, limit=10):
        found = self.api.ok('post', (queue or self.queue) + '/claims',
                            {'ttl': 60, 'grace': 60}, limit=limit)
        return {m['id']: m for m in (found or {}).get('messages', [])}

    def patch(self, mid, body, queue=None):
        return self.api.call('patch', '%s/messages/%s' % (
            queue or self.queue, mid), body)

    # due on every message read

    def test_due_on_every_message_a_client_reads(self):
        now = time.time()
        ready, waiting = self.post({'delay': 0}, {})
        one = self.api.ok('get', '%s/messages/%s' % (self.queue, waiting))
        self.assertRegex(one['due'], ISO_MS)
        self.assertGreaterEqual(delay.parse_time(one['due']), now + 30)
        by_ids = self.api.ok('get', '%s/messages?ids=%s,%s' % (
            self.queue, ready, waiting))['messages']
        self.assertEqual({ready, waiting}, {m['id'] for m in by_ids})
        self.assertTrue(all(ISO_MS.match(m['due']) for m in by_ids))
        listed = self.listed()
        self.assertEqual(one['due'], listed[waiting]['due'])
        self.assertEqual([ready], list(self.listed(include_delayed='false')))
        claimed = self.claim()
        self.assertEqual([ready], list(claimed))
        self.assertRegex(claimed[ready]['due'], ISO_MS)
        self.assertLessEqual(delay.parse_time(claimed[ready]['due']),
                             time.time())
        (claim,) = self.api.ok('get', self.queue + '/claims/' + claimed[
            ready]['href'].split('claim_id=')[1])['messages']
        self.assertEqual(claimed[ready]['due'], claim['due'])
        self.patch(waiting, {'delay': 0})
        (popped,) = self.api.ok('delete', self.queue + '/messages',
                                pop=1)['messages']
        self.assertEqual(waiting, popped['id'])
        self.assertRegex(popped['due'], ISO_MS)

    def test_upstreams_answers_unless_due_times_are_asked_for(self):
        # python-zaqarclient makes its message objects of the fields it
        # knows: a message with another one breaks it.
        plain = Api(self.stack.url, self.project, dues=False)
        # python-zaqarclient refuses dotted queue names, Zaqar does not.
        name = self.make_queue('zc-', _default_message_delay=30)
        ready, waiting = self.post({'delay': 0}, {}, queue=name)
        one = plain.ok('get', '%s/messages/%s' % (name, waiting))
        listed = plain.ok('get', name + '/messages', echo='true',
                          include_delayed='true')['messages']
        claimed = plain.ok('post', name + '/claims',
                           {'ttl': 60, 'grace': 60})['messages']
        for message in [one] + listed + claimed:
            self.assertEqual({'id', 'href', 'ttl', 'age', 'body'},
                             set(message) - {'checksum'})
        cli = client.Client(self.stack.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': self.project}}})
        queue = cli.queue(name.split('/')[-1], auto_create=False)
        listed = queue.messages(echo=True, include_delayed=True,
                                include_claimed=True)
        self.assertEqual({ready, waiting}, {m.id for m in listed})
        self.patch(waiting, {'delay': 0}, queue=name)
        claimed = queue.claim(ttl=60, grace=60)
        self.assertEqual([waiting], [m.id for m in claimed])

    # a due time on post

    def test_a_due_time_on_post_on_any_queue(self):
        plain = self.make_queue('plain.')
        for queue in (self.queue, plain):
            soon = time.time() + LONG
            (later,) = self.post({'due': iso(soon)}, queue=queue)
            (offset,) = self.post(
                {'due': time.strftime('%Y-%m-%dT%H:%M:%S+02:00',
                                      time.gmtime(soon + 7200))},
                queue=queue)
            (past,) = self.post({'due': '2001-02-03T04:05:06Z'},
                                queue=queue)
            self.assertEqual([past], list(self.claim(queue=queue)), queue)
            listed = self.listed(queue=queue)
            self.assertEqual(iso(soon), listed[later]['due'])
            self.assertAlmostEqual(int(soon), delay.parse_time(
                listed[offset]['due']), delta=1)

    def test_bad_due_times_and_delays_get_a_400(self):
        plain = self.make_queue('plain.')
        soon = iso(time.time() + 60)
        for queue in (self.queue, plain):
            for message in ({'due': soon, 'delay': 5},
                            {'due': 'tomorrow'}, {'due': 5},
                            {'due': '2030-01-01T00:00:00'},
                            {'due': iso(time.time() + 7200)},
                            {'due': iso(time.time() + 90), 'ttl': 60},
                            {'delay': 'ten'}, {'delay': -1},
                            {'delay': True}, {'delay': 99999999}):
                status, found = self.api.call(
                    'post', queue + '/messages',
                    {'messages': [dict({'ttl': 300, 'body': 1}, **message)]})
                self.assertEqual(400, status, (queue, message, found))
                self.assertTrue(found['description'], found)
            self.assertEqual({}, self.listed(queue=queue))

    def test_a_delay_on_a_queue_without_default_is_ignored(self):
        plain = self.make_queue('plain.')
        (mid,) = self.post({'delay': 60}, queue=plain)
        self.assertEqual([mid], list(self.claim(queue=plain)))

    # idempotent posts

    def test_an_idempotency_key_stores_a_post_sent_twice_once(self):
        plain = self.make_queue('plain.')
        for queue in (self.queue, plain):
            body = {'messages': [
                {'body': 'once', 'ttl': 300, 'idempotency_key': 'job-7'},
                {'body': 'other', 'ttl': 300, 'idempotency_key': 'job-8'}]}
            first = self.api.ok('post', queue + '/messages', body)
            again = self.api.ok('post', queue + '/messages', body)
            self.assertEqual(first['resources'], again['resources'], queue)
            self.assertEqual(2, len(self.listed(queue=queue)), queue)
        for key in ('', 5, 'k' * 257):
            status, found = self.api.call(
                'post', self.queue + '/messages', {'messages': [
                    {'body': 1, 'ttl': 300, 'idempotency_key': key}]})
            self.assertEqual(400, status, (key, found))

    # reschedule and run now

    def test_reschedule_run_now_and_keep_id_body_and_expiry(self):
        (mid,) = self.post({'delay': 0, 'body': {'k': 'v'}, 'ttl': 3000})
        status, found = self.patch(mid, {'delay': LONG})
        self.assertEqual(200, status, found)
        self.assertEqual((mid, {'k': 'v'}, 3000),
                         (found['id'], found['body'], found['ttl']))
        self.assertGreaterEqual(delay.parse_time(found['due']),
                                time.time() + LONG - 5)
        self.assertEqual({}, self.claim())
        stats = self.api.ok('get', self.queue + '/stats')['messages']
        self.assertEqual((1, 0), (stats['delayed'], stats['free']))
        when = time.time() + 2 * LONG
        status, found = self.patch(mid, {'due': iso(when)})
        self.assertEqual((200, iso(when)), (status, found['due']))
        status, found = self.patch(mid, {'delay': 0})
        self.assertEqual(200, status, found)
        self.assertEqual([mid], list(self.claim()))

    def test_reschedule_refusals(self):
        ready, waiting = self.post({'delay': 0}, {'ttl': 120})
        self.claim()
        self.assertEqual(409, self.patch(ready, {'delay': 5})[0])
        self.assertEqual(404, self.patch(str(uuid.uuid4()),
                                         {'delay': 5})[0])
        for body in ({}, {'delay': 5, 'due': iso(time.time())},
                     {'delay': -2}, {'due': 'soon'}, {'delay': 300},
                     [1]):
            status, found = self.patch(waiting, body)
            self.assertEqual(400, status, (body, found))
        # Nothing changed: still due in 30 s, from the queue's default.
        due = delay.parse_time(self.listed()[waiting]['due'])
        self.assertLess(due, time.time() + 31)

    def test_another_project_cannot_see_reschedule_or_move(self):
        (mid,) = self.post({})
        other = Api(self.stack.url, self.other_project)
        self.assertEqual(404, other.call(
            'get', '%s/messages/%s' % (self.queue, mid))[0])
        self.assertEqual(404, other.call(
            'patch', '%s/messages/%s' % (self.queue, mid), {'delay': 0})[0])
        other.ok('put', self.queue, self.queue_metadata)
        status, found = other.call('post', self.queue + '/messages/move',
                                   {'to': 'x.y', 'ids': [mid]})
        self.assertEqual([], (found or {}).get('moved', []), status)
        self.assertEqual([mid], list(self.listed()))

    def test_a_reschedule_racing_claims_is_never_both(self):
        ids = self.post(*[{'delay': 0}] * 40)
        rescheduled, claimed, stop = {}, {}, threading.Event()

        def claimer():
            api = Api(self.stack.url, self.project)
            while not stop.is_set():
                found = api.ok('post', self.queue + '/claims',
                               {'ttl': 300, 'grace': 60}, limit=3)
                for message in (found or {}).get('messages', []):
                    claimed[message['id']] = time.time()

        threads = [threading.Thread(target=claimer) for _ in range(3)]
        for thread in threads:
            thread.start()
        try:
            for mid in ids:
                status, found = self.patch(mid, {'delay': LONG})
                self.assertIn(status, (200, 409), found)
                if status == 200:
                    rescheduled[mid] = delay.parse_time(found['due'])
        finally:
            stop.set()
            for thread in threads:
                thread.join(30)
        both = set(rescheduled) & set(claimed)
        self.assertEqual(set(), {mid for mid in both
                                 if claimed[mid] < rescheduled[mid]})
        self.assertEqual(set(ids), set(rescheduled) | set(claimed))

    # move

    def test_move_by_ids_and_oldest_first(self):
        target = self.make_queue('dlq.').split('/')[-1]
        ids = self.post({'delay': 0}, {'delay': 0}, {}, {'delay': 0})
        held = list(self.claim(limit=1))
        self.assertEqual([ids[0]], held)
        found = self.api.ok('post', self.queue + '/messages/move',
                            {'to': target, 'limit': 2})
        moved = [(m['id'], m['new_id']) for m in found['moved']]
        self.assertEqual(ids[1:3], [old for old, _ in moved])
        in_target = self.listed(queue='/queues/' + target)
        self.assertEqual({new for _, new in moved}, set(in_target))
        self.assertEqual({1, 2}, {m['body'] for m in in_target.values()})
        self.assertEqual({ids[0], ids[3]},
                         set(self.listed(include_claimed='true')))
        # By ids, due later: a held or unknown id is not moved.
        found = self.api.ok('post', self.queue + '/messages/move',
                            {'to': target, 'ids': [ids[3], ids[0], 'x'],
                             'delay': LONG})
        (later,) = found['moved']
        self.assertEqual(ids[3], later['id'])
        self.assertEqual(3, len(self.listed(queue='/queues/' + target)))
        # The first two moved are ready; the last waits LONG seconds.
        self.assertEqual({new for _, new in moved},
                         set(self.claim(queue='/queues/' + target)))

    def test_move_refusals(self):
        (mid,) = self.post({})
        for body in ({'ids': [mid]}, {'to': self.name, 'ids': [mid]},
                     {'to': 'bad name!', 'ids': [mid]},
                     {'to': 'x', 'ids': [mid], 'limit': 1},
                     {'to': 'x', 'limit': 101}, {'to': 'x', 'ids': []},
                     {'to': 'x', 'ids': [mid], 'delay': 1,
                      'due': iso(time.time())}):
            status, found = self.api.call(
                'post', self.queue + '/messages/move', body)
            self.assertEqual(400, status, (body, found))
        self.assertEqual([mid], list(self.listed()))


class PooledWaitingControl(WaitingControl):
    """The suite in a pooled deployment of two ``store`` pools (flavors
    ``one`` and ``two``, each its own database): the queues are in pool
    one; a move to a queue of pool two crosses pools."""

    @classmethod
    def stack_options(cls):
        return dict(super().stack_options(),
                    options=zaqar_server.pooled_catalog())

    @classmethod
    def pool_uri(cls, uri, n):
        """The URI, past its scheme, of pool ``n`` (0, 1) from the
        server's store's ``uri``: a database of its own (Zaqar refuses
        two pools with one URI)."""
        return uri.replace('dbid=0', 'dbid=%d' % (n + 3))

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        store = cls.stack.sections('wsgi', cls.stack.port)[
            'drivers:message_store:' + cls.store.split('.')[0]]
        scheme, rest = store['uri'].split('://', 1)
        for n, flavor in enumerate(('one', 'two')):
            uri = cls.pool_uri(rest, n)
            reply = zaqar_server.add_pool(
                cls.stack.url, flavor, cls.store + '://' + uri,
                {k: v for k, v in store.items() if k != 'uri'})
            assert reply.status_code == 201, reply.text
            for project in (cls.project, cls.other_project):
                admin = Api(cls.stack.url, project)
                admin.headers['X-Roles'] = 'admin'
                admin.ok('put', '/flavors/' + flavor,
                         {'pool_list': [flavor], 'capabilities': {}})

    queue_metadata = {'_flavor': 'one'}

    def test_a_move_across_pools(self):
        target = self.make_queue('far.', _flavor='two').split('/')[-1]
        ids = self.post({'delay': 0, 'body': 'a'}, {'body': 'b'},
                        {'delay': 0, 'body': 'c'})
        held = list(self.claim(limit=1))
        body = {'to': target, 'ids': ids, 'delay': LONG}
        found = self.api.ok('post', self.queue + '/messages/move', body)
        moved = {m['id']: m['new_id'] for m in found['moved']}
        self.assertEqual(set(ids) - set(held), set(moved))
        self.assertEqual(set(held), set(self.listed(include_claimed='true')))
        copies = self.listed(queue='/queues/' + target)
        self.assertEqual(set(moved.values()), set(copies))
        self.assertEqual({'b', 'c'}, {m['body'] for m in copies.values()})
        # Repeated (as after a move that died part way): nothing twice.
        again = self.api.ok('post', self.queue + '/messages/move', body)
        self.assertEqual([], again['moved'])
        self.assertEqual(2, len(self.listed(queue='/queues/' + target)))
