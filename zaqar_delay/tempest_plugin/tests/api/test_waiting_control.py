"""Waiting messages under the client's control (the ``wsgi.delay``
transport): due times shown, posted for a time, rescheduled, moved.

They need a zaqar-server serving ``wsgi.delay`` (``[delayed_messaging]
waiting_control = True``, as ``tox -e tempest`` sets it).
"""

import json
import re
import time

from tempest import config
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from zaqar_delay.tempest_plugin.tests import base

CONF = config.CONF
ISO_MS = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$')
DUE_HEADER = 'Zaqar-Delay-Due'


def iso(when):
    return time.strftime('%Y-%m-%dT%H:%M:%S.000Z', time.gmtime(when))


class TestWaitingControl(base.TwoProjectTest):
    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        if not CONF.delayed_messaging.waiting_control:
            raise cls.skipException('the server does not serve wsgi.delay')

    def call(self, method, path, body=None, client=None):
        """(status, JSON) of a request on ``/v2/queues/<path>``, asking
        for due times."""
        client = client or self.client
        headers = dict(client.headers, **{DUE_HEADER: 'true'})
        url = '%s/queues/%s' % (client.uri_prefix, path)
        try:
            if method in ('get', 'delete'):
                resp, body = getattr(client, method)(
                    url, extra_headers=True, headers=headers)
            else:
                resp, body = getattr(client, method)(
                    url, json.dumps(body), extra_headers=True,
                    headers=headers)
        except lib_exc.RestClientException as exc:
            return int(exc.resp['status']), None
        return int(resp['status']), json.loads(body) if body else None

    def listed(self, queue, client=None):
        status, found = self.call(
            'get', queue + '/messages?echo=true&include_delayed=true',
            client=client)
        return {m['body']['name']: m for m in (found or {}).get(
            'messages', [])}

    @decorators.idempotent_id('b3c01378-d920-4186-beec-62849fb7accc')
    def test_each_message_read_has_its_due_time(self):
        queue = self.make_queue(default_delay=self.max_delay)
        posted = self.post(queue, {'body': 'later', 'ttl': 7200})
        (later,) = self.listed(queue).values()
        self.assertRegex(later['due'], ISO_MS)
        status, one = self.call('get', '%s/messages/%s' % (queue,
                                                           later['id']))
        self.assertEqual((200, later['due']), (status, one['due']))
        self.assertGreaterEqual(one['due'], iso(posted + self.max_delay - 5))

    @decorators.idempotent_id('718ceddc-980d-46e1-af8c-c72e394fe484')
    def test_a_message_posted_for_a_time_waits_until_then(self):
        queue = self.make_queue()
        when = time.time() + self.max_delay / 2
        self.post(queue, {'body': 'at a time', 'ttl': self.max_delay,
                          'due': iso(when)},
                  {'body': 'past', 'ttl': 300, 'due': iso(time.time() - 60)})
        self.assertEqual(['past'], self.claim(queue))
        self.assertEqual(iso(when), self.listed(queue)['at a time']['due'])

    @decorators.idempotent_id('4b7f6a75-dbf8-48cc-95bb-fe9c79e2a8f1')
    def test_a_bad_due_time_or_delay_is_refused(self):
        queue = self.make_queue()
        for message in ({'due': 'tomorrow'}, {'due': iso(time.time()),
                                              'delay': 1},
                        {'delay': -1}, {'delay': 'ten'}):
            status, _ = self.call('post', queue + '/messages', {
                'messages': [dict(message, body={'name': 'x'}, ttl=300)]})
            self.assertEqual(400, status, message)

    @decorators.idempotent_id('860459ab-0129-41ab-be13-be5104d04827')
    def test_reschedule_later_then_run_now(self):
        queue = self.make_queue(default_delay=self.max_delay)
        self.post(queue, {'body': 'job', 'ttl': 7200, 'delay': 0})
        mid = self.listed(queue)['job']['id']
        status, found = self.call('patch', '%s/messages/%s' % (queue, mid),
                                  {'delay': self.max_delay})
        self.assertEqual(200, status)
        self.assertEqual([], self.claim(queue))
        status, found = self.call('patch', '%s/messages/%s' % (queue, mid),
                                  {'delay': 0})
        self.assertEqual((200, mid), (status, found['id']))
        self.assertEqual(['job'], self.claim(queue))
        status, _ = self.call('patch', '%s/messages/%s' % (queue, mid),
                              {'delay': 5})
        self.assertEqual(409, status)

    @decorators.idempotent_id('8fd52ce2-3704-4727-aed9-3decdc97eddb')
    def test_move_messages_to_another_queue(self):
        queue = self.make_queue(default_delay=self.max_delay)
        target = self.make_queue()
        self.post(queue, {'body': 'a', 'ttl': 7200, 'delay': 0},
                  {'body': 'b', 'ttl': 7200})
        status, found = self.call('post', queue + '/messages/move',
                                  {'to': target, 'limit': 10})
        self.assertEqual(200, status)
        self.assertEqual(2, len(found['moved']))
        self.assertEqual({}, self.listed(queue))
        self.assertEqual(['a', 'b'], self.claim(target))

    @decorators.idempotent_id('7099b8be-ce62-42a8-91d1-4db30cec9a1e')
    def test_another_project_cannot_reschedule_or_move(self):
        queue = self.make_queue(default_delay=self.max_delay)
        self.post(queue, {'body': 'mine', 'ttl': 7200})
        mid = self.listed(queue)['mine']['id']
        self.alt_client.create_queue(queue)
        self.addCleanup(self.alt_client.delete_queue, queue)
        status, _ = self.call('patch', '%s/messages/%s' % (queue, mid),
                              {'delay': 0}, client=self.alt_client)
        self.assertEqual(404, status)
        status, found = self.call('post', queue + '/messages/move',
                                  {'to': queue + '-x', 'ids': [mid]},
                                  client=self.alt_client)
        self.assertEqual([], (found or {}).get('moved', []))
        self.assertEqual(['mine'], list(self.listed(queue)))
