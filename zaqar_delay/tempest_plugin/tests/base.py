"""What the delayed-queue tests share: queues, posts, claims, lists."""

import json
import time

from tempest import config
from tempest.lib.common.utils import data_utils
from zaqar_tempest_plugin.services.messaging.json import messaging_client
from zaqar_tempest_plugin.tests import base

CONF = config.CONF
KEY = '_default_message_delay'


class DelayedQueueTest(base.BaseV2MessagingTest):

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.delay = CONF.delayed_messaging.delay
        cls.max_delay = CONF.delayed_messaging.max_message_delay

    def make_queue(self, default_delay=None, client=None):
        client = client or self.client
        name = data_utils.rand_name('delayed')
        client.create_queue(name)
        self.addCleanup(client.delete_queue, name)
        if default_delay is not None:
            self.set_default_delay(name, default_delay, client)
        return name

    def set_default_delay(self, queue, value, client=None):
        (client or self.client).set_queue_metadata(queue, [
            {'op': 'add', 'path': '/metadata/' + KEY, 'value': value}])

    def post(self, queue, *messages, client=None):
        """Post messages; returns when they were posted. A message's
        ``body`` is given as a name and posted as ``{"name": name}``
        (the v2 response schemas want object bodies)."""
        posted = [dict(m, body={'name': m['body']}) for m in messages]
        (client or self.client).post_messages(queue, {'messages': posted})
        return time.time()

    def claim(self, queue, limit=10, client=None):
        """The body names of the messages a claim gets (none: [])."""
        resp, body = (client or self.client).post_claims(
            queue, {'ttl': 60, 'grace': 60}, url_params={'limit': limit})
        if resp['status'] == '204':
            return []
        return sorted(m['body']['name'] for m in body['messages'])

    def bodies(self, queue, client=None, **params):
        """The body names a list returns (``include_delayed`` and so
        on)."""
        client = client or self.client
        query = '&'.join(['echo=true'] + ['%s=%s' % (k, str(v).lower())
                                          for k, v in params.items()])
        resp, body = client.get('%s/queues/%s/messages?%s' % (
            client.uri_prefix, queue, query), extra_headers=True,
            headers=client.headers)
        if resp['status'] == '204':
            return []
        return sorted(m['body']['name']
                      for m in json.loads(body)['messages'])

    def counts(self, queue, client=None):
        _, body = (client or self.client).show_queue_stats(queue)
        return body['messages']

    def wait_until(self, when):
        time.sleep(max(0.0, when - time.time()))

    def claim_when_due(self, queue, posted_at, expected):
        """Claim once the delay has passed, retrying briefly (a store's
        listings may lag a write by a moment)."""
        self.wait_until(posted_at + self.delay + 1)
        for _ in range(10):
            got = self.claim(queue)
            if got:
                break
            time.sleep(0.5)
        self.assertEqual(expected, got)


class TwoProjectTest(DelayedQueueTest):
    """A ``DelayedQueueTest`` with ``alt_client``: the same API as
    another project's user."""

    credentials = ['primary', 'alt']

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.alt_client = messaging_client.V2MessagingClient(
            cls.os_alt.auth_provider, CONF.messaging.catalog_type,
            CONF.identity.region)
