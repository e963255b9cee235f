"""wsgi.delay's routes go through Zaqar's oslo.policy, as upstream's:
a deployment that keeps reschedules and moves to admins refuses them
to a member with a 403, and a project never reaches another's
messages, through a zaqar-delay-server that authenticates with
Keystone."""

import os
import tempfile
import uuid

import requests
import testtools

from tests.fixtures import services
from tests.fixtures import zaqar_server

POLICY = """"messages:update": "role:admin"
"messages:move": "role:admin"
"""


class PolicyTest(testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.keystone = services.keystone()
        if not getattr(cls.keystone, 'policy_users', None):
            cls.keystone.policy_users = [
                cls.keystone.user(name, name + '-project')
                for name in ('policy-member', 'policy-other')]
        cls.dir = tempfile.mkdtemp(prefix='zaqar-delay-policy-')
        policy = os.path.join(cls.dir, 'policy.yaml')
        with open(policy, 'w') as f:
            f.write(POLICY)
        cls.stack = zaqar_server.ZaqarServer(
            keystone=cls.keystone.zaqar_auth(), wsgi_delay=True,
            options={'oslo_policy': {'policy_file': policy}}).start()

    @classmethod
    def tearDownClass(cls):
        cls.stack.cleanup()
        super().tearDownClass()

    def call(self, user, method, path, body=None):
        token, _ = self.keystone.token(user + '-project', user)
        reply = requests.request(
            method, '%s/v2/queues/%s' % (self.stack.url, path), json=body,
            timeout=30, headers={'Client-ID': str(uuid.uuid4()),
                                 'X-Auth-Token': token,
                                 'Zaqar-Delay-Due': 'true'})
        return reply.status_code, reply.json() if reply.content else None

    def test_the_rules_decide_who_reschedules_and_moves(self):
        queue = 'policy-' + uuid.uuid4().hex[:8]
        self.assertEqual(201, self.call('policy-member', 'put', queue,
                                        {'_default_message_delay': 60})[0])
        status, found = self.call('policy-member', 'post',
                                  queue + '/messages',
                                  {'messages': [{'body': 1, 'ttl': 300}]})
        mid = found['resources'][0].rsplit('/', 1)[1]
        status, found = self.call('policy-member', 'get',
                                  queue + '/messages/' + mid)
        self.assertEqual(200, status)
        self.assertIn('due', found)
        self.assertEqual(403, self.call('policy-member', 'patch',
                                        queue + '/messages/' + mid,
                                        {'delay': 0})[0])
        self.assertEqual(403, self.call('policy-member', 'post',
                                        queue + '/messages/move',
                                        {'to': queue + '-x',
                                         'ids': [mid]})[0])
        # Another project does not see the message at all.
        self.assertEqual(404, self.call('policy-other', 'get',
                                        queue + '/messages/' + mid)[0])
