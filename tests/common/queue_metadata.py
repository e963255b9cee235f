"""Bad queue metadata gets a 400 at the queue PUT or PATCH that gives it,
and nothing is stored: one suite, mixed into a test class per store
(and a pooled server), each on a real zaqar-server over HTTP.

The class sets ``cls.stack`` (a started zaqar_server.ZaqarServer with
``max_delay = MAX_DELAY``) and may override ``headers``.
"""

import json
import urllib.error
import urllib.request
import uuid

MAX_DELAY = 900
PATCH_TYPE = 'application/openstack-messaging-v2.0-json-patch'
GOOD = {'_default_message_delay': 5, 'kept': 1}

# Every metadata key the delay drivers read, with values they would not
# honour, and a part of the 400's text. Zaqar's own check answers some
# (its words); the queue stage answers the rest.
BAD = [
    ('_default_message_delay', True, 'whole number of seconds from 0 '
     'to 900 ([transport] max_message_delay), not true'),
    ('_default_message_delay', False, 'not false'),
    ('_default_message_delay', 'ten', 'must be integer'),
    ('_default_message_delay', -1, 'must be at least 0'),
    ('_default_message_delay', MAX_DELAY + 1, 'can not exceed 900'),
    ('_max_claim_count', True, '_max_claim_count must be a whole number'),
    ('_max_claim_count', -1, '_max_claim_count must be a whole number'),
    ('_dead_letter_queue', 5, '_dead_letter_queue must name a queue'),
    ('_dead_letter_queue_messages_ttl', True, 'The TTL for a message may '
     'not exceed'),
    ('_dead_letter_queue_messages_ttl', False, 'The TTL for a message may '
     'not exceed'),
    ('_retry_backoff', {'initial': 0}, '_retry_backoff.initial must be'),
    ('_dedup_key', '', '_dedup_key must be the name of a field'),
    ('_dedup_window', 60, '_dedup_window needs _dedup_key'),
    ('_history_ttl', True, '_history_ttl must be a whole number'),
    ('_schedules', 'nightly', '_schedules'),
]


class BadMetadataTests:
    """Every bad value of ``BAD``: refused at PUT and at PATCH."""

    project = 'p.1:meta'
    # Keys whose values the store class checks. All of BAD by default.
    bad = BAD

    def headers(self, content_type='application/json'):
        return {'Client-ID': str(uuid.uuid4()), 'X-Project-ID': self.project,
                'Content-Type': content_type}

    def request(self, method, path, body=None,
                content_type='application/json'):
        """(status, decoded body) of a request to ``/v2/queues/PATH``
        (``/v2/queues?...`` for a PATH that starts with ``?``)."""
        req = urllib.request.Request(
            self.stack.url + '/v2/queues' + (
                path if path.startswith('?') else '/' + path), method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers=self.headers(content_type))
        try:
            with urllib.request.urlopen(req, timeout=30) as reply:
                text = reply.read()
                return reply.status, json.loads(text) if text else None
        except urllib.error.HTTPError as exc:
            text = exc.read()
            return exc.code, json.loads(text) if text else None

    def listed(self):
        """The names of the project's queues."""
        names = []
        while True:
            status, body = self.request(
                'GET', '?limit=20&marker=' + (names[-1] if names else ''))
            self.assertEqual(200, status, body)
            if not body['queues']:
                return names
            names += [queue['name'] for queue in body['queues']]

    def metadata(self, name):
        """The metadata of a listed queue less the defaults a GET shows
        (a GET answers for any name: v2 makes a queue at its first
        post)."""
        self.assertIn(name, self.listed())
        if not hasattr(type(self), 'defaults'):
            self.assertEqual(201, self.request('PUT', 'bare', {})[0])
            type(self).defaults = self.request('GET', 'bare')[1]
        status, body = self.request('GET', name)
        self.assertEqual(200, status, body)
        return {key: value for key, value in body.items()
                if key not in self.defaults or self.defaults[key] != value}

    def assert_refused(self, status, body, why, what):
        self.assertEqual(400, status, '%s: %s' % (what, body))
        self.assertIn(why, body['description'], what)

    def test_a_put_with_bad_metadata_is_a_400_and_creates_nothing(self):
        for index, (key, value, why) in enumerate(self.bad):
            name = 'bad.put-%d' % index
            status, body = self.request('PUT', name, {key: value})
            self.assert_refused(status, body, why,
                                'PUT %s=%r' % (key, value))
            self.assertNotIn(name, self.listed(), key)

    def test_a_patch_with_bad_metadata_is_a_400_and_changes_nothing(self):
        name = 'bad.patch'
        self.assertEqual(201, self.request('PUT', name, GOOD)[0])
        for key, value, why in self.bad:
            for op in ('add', 'replace') if key in GOOD else ('add',):
                status, body = self.request(
                    'PATCH', name,
                    [{'op': op, 'path': '/metadata/' + key, 'value': value}],
                    PATCH_TYPE)
                self.assert_refused(status, body, why, 'PATCH %s %s=%r' % (
                    op, key, value))
        self.assertEqual(GOOD, self.metadata(name))

    def test_posts_to_a_queue_whose_default_was_refused_work(self):
        # Before the check, true was stored and every post without a
        # delay of its own then failed with a 400 about the message.
        name = 'bad.posts'
        self.assertEqual(201, self.request('PUT', name, {})[0])
        status, body = self.request('PATCH', name, [{
            'op': 'add', 'path': '/metadata/_default_message_delay',
            'value': True}], PATCH_TYPE)
        self.assertEqual(400, status, body)
        status, body = self.request('POST', name + '/messages', {
            'messages': [{'body': 1, 'ttl': 300}]})
        self.assertEqual(201, status, body)
