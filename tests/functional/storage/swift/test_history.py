"""Message history on ``swift.delay``, through a real zaqar-server and
python-zaqarclient, read and replayed with ``zaqar-delay-manage``.

As ``tests/functional/http/test_history.py`` does on ``redis.delay``.
Waits here are real and short (a 1 s delay, a 1 s backoff, a few
seconds of history ttl). Zaqar's shortest message ttl is 60 s: the
expiry test ends a message's life early the way Swift ends it, by its
object's ``X-Delete-At``. The test Swift runs no object expirer: an
object past its ``X-Delete-At`` is answered 404 but still listed, which
is what these tests observe of Swift's expiry.
"""

import time

import swiftclient

from tests.common import history as history_tests
from tests.common import manage as cli_manage
from tests.fixtures import services
from tests.fixtures import zaqar_server
from zaqar_delay.storage import export
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import upstream

PROJECT = 'tenant.a'


class SwiftHistoryTest(history_tests.ServerHistory,
                       zaqar_server.ServerTestCase):

    project = PROJECT

    @classmethod
    def setUpClass(cls):
        cls.server_options = {
            'message_store': 'swift.delay', 'max_delay': 3600,
            'swift': services.keystone_swift().swift_store()}
        super().setUpClass()
        cls.swift = export.load([cls.stack.conf])[2].connection

    def objects(self, queue, markers=False):
        """(name, X-Delete-At) of the queue's event objects (or of its
        markers, ``.<message id>.<kind>``)."""
        box = history.container(queue, PROJECT)
        return [(obj['name'], int(self.swift.head_object(
            box, obj['name'])['x-delete-at']))
            for obj in self.swift.get_container(box)[1]
            if obj['name'].startswith('.') == markers]

    def kept(self, events, mid):
        # Each event object expires _history_ttl after its event.
        kept = self.objects(self.name)
        self.assertEqual([e['at'] + 3600 for e in events],
                         [expires for _, expires in kept])
        # The deleted event's marker expires with it.
        self.assertEqual([('.%s.deleted' % mid, events[-1]['at'] + 3600)],
                         self.objects(self.name, markers=True))

    def test_a_time_range_is_read_from_the_listing(self):
        queue = self.dotted(self.name, _history_ttl=3600)
        queue.post([{'body': 'first', 'ttl': 300}])
        first = self.history(self.name)
        self.assertEqual(['posted'], [e['kind'] for e in first])
        while int(time.time()) <= first[0]['at']:
            time.sleep(0.1)
        queue.post([{'body': 'second', 'ttl': 300}])
        since = first[0]['at'] + 1
        later = self.history(self.name, '--since', str(since))
        self.assertEqual(['second'], [e['body'] for e in later])
        self.assertEqual(['first'], [e['body'] for e in self.history(
            self.name, '--until', str(first[0]['at']))])

    def test_expired_unseen(self):
        queue = self.dotted(self.name, _history_ttl=3600)
        mid = queue.post([{'body': 'late', 'ttl': 60}])['resources'][0]
        mid = mid.rsplit('/', 1)[-1]
        self.assertEqual(['posted'],
                         [e['kind'] for e in self.history(self.name)])
        box = upstream.message_container(self.name, PROJECT)
        ends = int(time.time()) + 2
        objects.expire(self.swift, box, mid, ends)
        while int(time.time()) <= ends:
            time.sleep(0.2)
        # Swift answers 404 for it: expired, before the end of its ttl
        # as posted: its time is when the reader found it gone.
        events = self.history(self.name)
        self.assertEqual(['posted', 'expired'], [e['kind'] for e in events])
        self.assertEqual('', events[-1]['count'])     # never claimed
        self.assertTrue(ends <= events[-1]['at'] <= int(time.time()),
                        events)

    def test_history_is_gone_after_its_ttl(self):
        # Long enough for the post and the first read, on a loaded
        # machine (2 s was not, once: the history was gone already).
        queue = self.dotted(self.name, _history_ttl=10)
        queue.post([{'body': 'short-lived', 'ttl': 300}])
        found = self.history(self.name)
        self.assertEqual(['posted'], [e['kind'] for e in found])
        (_, expires), = self.objects(self.name)
        self.assertEqual(found[0]['at'] + 10, expires)
        while int(time.time()) <= expires:
            time.sleep(0.2)
        self.assertEqual([], self.history(self.name))
        # Queues without _history_ttl keep none.
        plain = self.dotted(self.name + '.plain')
        plain.post([{'body': 'x', 'ttl': 300}])
        self.assertTrue(cli_manage.keeps_no_history(
            self.stack.conf, self.name + '.plain', PROJECT))
        self.assertRaises(swiftclient.ClientException,
                          self.swift.head_container,
                          history.container(self.name + '.plain', PROJECT))
