"""Bad ``_schedules`` get a 400 that says why, on a queue create and on
a metadata PATCH, through a real zaqar-server; good ones are stored
and show in the queue's stats as ``next_tick``."""

import json
import urllib.error
import urllib.request
import uuid

from tests.fixtures import services
from tests.fixtures import zaqar_server


def _every(**fields):
    return dict({'name': 'n', 'every': 60, 'body': {'job': 1}}, **fields)


BAD = [
    ([_every(every=0)], 'every must be a whole number of seconds'),
    ([{'name': 'n', 'cron': '0 25 * * *', 'body': 1}],
     "bad cron expression '0 25 * * *'"),
    ([_every(timezone='Europe/Atlantis')], "unknown timezone "
     "'Europe/Atlantis'"),
    ([_every(body='x' * 20000)], 'body is 20002 bytes as JSON'),
    ([_every(name='s%d' % i) for i in range(21)],
     'has 21 schedules; a queue may have at most 20'),
]


class ScheduleMetadataTest(zaqar_server.ServerTestCase):

    def request(self, method, path, body, content_type='application/json'):
        req = urllib.request.Request(
            '%s/v2/queues/%s' % (self.stack.url, path), method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={'Client-ID': str(uuid.uuid4()),
                     'X-Project-ID': 'p.1:sched',
                     'Content-Type': content_type})
        try:
            with urllib.request.urlopen(req, timeout=10) as reply:
                text = reply.read()
                return reply.status, json.loads(text) if text else None
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def test_a_create_with_bad_schedules_is_a_400_that_says_why(self):
        for schedules, why in BAD:
            status, body = self.request('PUT', 'sched.bad', {
                '_schedules': schedules})
            self.assertEqual(400, status, body)
            self.assertIn('Queue "sched.bad" not created: _schedules',
                          body['description'])
            self.assertIn(why, body['description'])

    def test_a_patch_with_bad_schedules_is_a_400_that_says_why(self):
        self.assertEqual(201, self.request('PUT', 'sched.patch', {})[0])
        patch = 'application/openstack-messaging-v2.0-json-patch'
        for schedules, why in BAD:
            status, body = self.request('PATCH', 'sched.patch', [
                {'op': 'add', 'path': '/metadata/_schedules',
                 'value': schedules}], patch)
            self.assertEqual(400, status, body)
            self.assertIn(why, body['description'])
        status, body = self.request('GET', 'sched.patch', None)
        self.assertNotIn('_schedules', body)

    def stored_stats(self, good):
        """Create queue ``sched.good`` with ``_schedules`` ``good``,
        check they are stored as given, and return the queue's stats."""
        self.assertEqual(201, self.request('PUT', 'sched.good', {
            '_schedules': good})[0])
        status, body = self.request('GET', 'sched.good', None)
        self.assertEqual(good, body['_schedules'])
        status, stats = self.request('GET', 'sched.good/stats', None)
        self.assertEqual(200, status)
        return stats

    def test_good_schedules_are_stored_and_show_a_next_tick(self):
        good = [_every(), {'name': 'nightly', 'cron': '0 2 * * *',
                           'timezone': 'Europe/Paris', 'body': 'b',
                           'catch_up': 'all', 'max_catch_up': 3}]
        stats = self.stored_stats(good)
        self.assertRegex(stats['next_tick'],
                         r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$')


class SwiftScheduleMetadataTest(ScheduleMetadataTest):
    """The same on ``swift.delay`` (its Keystone and Swift)."""

    @classmethod
    def setUpClass(cls):
        cls.server_options = {
            'message_store': 'swift.delay',
            'swift': services.keystone_swift().swift_store()}
        super().setUpClass()
