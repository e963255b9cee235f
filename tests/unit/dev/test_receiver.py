"""The devserver's webhook receiver prints each push it gets."""

import io
import json
import os
import urllib.request

import fixtures
import testtools

from zaqar_delay.dev import receiver


class ReceiverTest(testtools.TestCase):

    def test_a_push_is_answered_and_printed_and_logged(self):
        log = os.path.join(self.useFixture(fixtures.TempDir()).path,
                           'pushes.log')
        out = io.StringIO()
        hook = receiver.Receiver(log, out)
        self.addCleanup(hook.stop)
        push = {'body': 'in 30 s', 'queue_name': 'reminders', 'ttl': 300}
        request = urllib.request.Request(
            hook.url, data=json.dumps(push).encode(), method='POST',
            headers={'Content-Type': 'application/json'})
        with urllib.request.urlopen(request, timeout=10) as reply:
            self.assertEqual(204, reply.status)
        line, = out.getvalue().splitlines()
        self.assertRegex(line, r'^\d\d:\d\d:\d\d push to reminders: ')
        self.assertEqual(push, json.loads(line.split(': ', 1)[1]))
        with open(log) as f:
            self.assertEqual(line + '\n', f.read())
