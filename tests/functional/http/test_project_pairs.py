"""Project ``a.b``'s queue ``c`` and project ``a``'s queue ``b.c`` keep
apart through a real zaqar-server on ``redis.delay`` (noauth, the
project in ``X-Project-ID``): invariants 5 and 6.

Project ``a.b`` is python-zaqarclient's; project ``a``'s queue is
reached with plain HTTP, python-zaqarclient refusing queue names with
dots, which Zaqar accepts.
"""

import uuid

import requests
from zaqarclient.queues import client

from tests.fixtures import zaqar_server


class ProjectPairsTest(zaqar_server.ServerTestCase):

    def client(self, project):
        return client.Client(self.stack.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': project}}})

    def other(self, path, method='GET', **kwargs):
        """Project ``a``'s queue ``b.c``, at ``path`` below it."""
        reply = self.call(method, 'a', 'queues/b.c' + path, **kwargs)
        return reply.json() if reply.status_code == 200 else None

    def bodies(self):
        """The bodies project ``a``'s queue ``b.c`` lists."""
        found = self.other('/messages?echo=true') or {'messages': []}
        return sorted(m['body'] for m in found['messages'])

    def names(self, project):
        return [q['name'] for q in
                self.call('GET', project, 'queues').json()['queues']]

    def test_a_dotted_project_and_its_prefix_keep_apart(self):
        mine = self.client('a.b').queue('c', force_create=True)
        mine.metadata(new_meta={'owner': 'a.b'})
        self.call('PUT', 'a', 'queues/b.c', json={'owner': 'a'})
        mine.post([{'body': 'one', 'ttl': 300}, {'body': 'two', 'ttl': 300}])

        self.assertEqual([], self.bodies())
        self.assertEqual(0, self.other('/stats')['messages']['total'])
        claimed = self.other('/claims', 'POST', json={'ttl': 60, 'grace': 60})
        self.assertEqual([], (claimed or {}).get('messages', []))
        self.assertEqual(['c'], self.names('a.b'))
        self.assertEqual(['b.c'], self.names('a'))
        self.assertEqual('a', self.other('')['owner'])
        self.assertEqual('a.b', mine.metadata(force_reload=True)['owner'])
        self.assertEqual(2, mine.stats['messages']['total'])
        self.assertEqual(['one', 'two'], sorted(
            m.body for m in mine.messages(echo=True)))

        # Deletes of one leave the other.
        self.other('/messages', 'POST', json={
            'messages': [{'body': 'three', 'ttl': 300}]})
        (theirs,) = self.other('/messages?echo=true')['messages']
        self.other('/messages/' + theirs['id'], 'DELETE')
        self.other('', 'DELETE')
        self.assertEqual([], self.names('a'))
        self.assertEqual(['one', 'two'], sorted(
            m.body for m in mine.messages(echo=True)))
        self.assertEqual('a.b', mine.metadata(force_reload=True)['owner'])
        self.assertEqual(['one', 'two'], sorted(
            m.body for m in mine.claim(ttl=60, grace=60)))

    def test_an_error_names_the_project_as_given(self):
        self.client('a.b').queue('c', force_create=True)
        reply = requests.get(
            self.stack.url + '/v2/queues/c/messages/' + str(uuid.uuid4()),
            headers={'Client-ID': str(uuid.uuid4()),
                     'X-Project-ID': 'a.b'}, timeout=30)
        self.assertEqual(404, reply.status_code)
        self.assertIn('project a.b', reply.text)
