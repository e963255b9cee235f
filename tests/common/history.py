"""What the history tests share, on a running ``self.stack``
(tests/fixtures/zaqar_server): a python-zaqarclient client of
``self.project``, queues with dotted names, claims that poll, and
``zaqar-delay-manage`` run in the test's process; and the tests every
store's history passes through a zaqar-server (``ServerHistory``) and
through its driver (``StoreHistory``)."""

import io
import json
import time
import uuid

from zaqarclient.queues import client
from zaqarclient.queues.v2 import core
from zaqarclient.queues.v2 import queues

from tests.common import behaviour
from tests.common import manage as cli_manage
from zaqar_delay.cmd import manage as manage_cmd


class HistoryClient:
    """Mixed into a TestCase; ``connect()`` makes ``self.cli``."""

    project = 'tenant.a'

    def connect(self):
        self.cli = client.Client(self.stack.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': self.project}}})

    def dotted(self, name, **metadata):
        """The client's queue ``name`` (dots and all), made with
        ``metadata`` in its PUT (python-zaqarclient refuses dotted names
        when it makes a queue)."""
        queue = queues.Queue(self.cli, 'placeholder')
        queue._name = name
        req, trans = self.cli._request_and_transport()
        core.queue_create(trans, req, name, metadata=metadata)
        return queue

    def manage(self, *argv):
        """The lines ``zaqar-delay-manage argv --project <project>``
        writes; it must exit 0."""
        out = io.StringIO()
        code = manage_cmd.main(['--config-file', self.stack.conf] +
                               list(argv) + ['--project', self.project],
                               out=out)
        self.assertEqual(0, code, out.getvalue())
        return out.getvalue().splitlines()

    def history(self, queue, *argv):
        """The queue's events, as ``history --json`` gives them."""
        return [json.loads(line)
                for line in self.manage('history', queue, '--json', *argv)]

    def claim_soon(self, queue, timeout=30):
        """The first claim that takes something, and its message."""
        deadline = time.time() + timeout
        while True:
            claim = queue.claim(ttl=60, grace=60, limit=1)
            messages = list(claim)
            if messages:
                return claim, messages[0]
            self.assertLess(time.time(), deadline, 'nothing to claim')
            time.sleep(0.2)


class ServerHistory(HistoryClient):
    """History tests through a zaqar-server; mixed into a
    ``zaqar_server.ServerTestCase`` of the store. ``kept(events, mid)``
    checks what the store keeps of a message's events."""

    def setUp(self):
        super().setUp()
        self.connect()
        self.name = 'orders.eu.' + uuid.uuid4().hex[:8]

    def kept(self, events, mid):
        pass

    def test_a_message_life_in_order_with_its_times(self):
        queue = self.dotted(self.name, _history_ttl=3600,
                            _default_message_delay=3600,
                            _retry_backoff={'initial': 1})
        before = int(time.time())
        mid, = queue.post([{'body': {'order': 42}, 'ttl': 300,
                            'delay': 1}])['resources']
        mid = mid.rsplit('/', 1)[-1]
        after = int(time.time()) + 1
        claim, _ = self.claim_soon(queue)
        claim.delete()                            # released: backoff 1 s
        claim, message = self.claim_soon(queue)
        message.delete()

        events = self.history(self.name, '--message', mid)
        self.assertEqual(['posted', 'claimed', 'released', 'claimed',
                          'deleted'], [e['kind'] for e in events])
        posted, first, released, second, deleted = events
        self.assertEqual({'order': 42}, posted['body'])
        self.assertEqual(('300', '1'), (posted['ttl'], posted['delay']))
        self.assertTrue(before <= posted['at'] <= after, posted)
        # Due a second after the post, to the ms (``at``: whole seconds).
        due = float(posted['due'])
        self.assertTrue(posted['at'] + 1 <= due <= posted['at'] + 2, posted)
        self.assertGreaterEqual(first['at'], int(due))
        self.assertEqual(('1', '1'), (first['count'], released['wait']))
        self.assertEqual(first['claim'], released['claim'])
        self.assertGreaterEqual(second['at'], released['at'] + 1)
        self.assertEqual('2', second['count'])
        self.assertEqual((second['claim'], '0'),
                         (deleted['claim'], deleted['popped']))
        self.assertLessEqual(deleted['at'], int(time.time()))
        self.assertEqual(['deleted'], [e['kind'] for e in self.history(
            self.name, '--kind', 'deleted')])
        table = self.manage('history', self.name)
        self.assertEqual(5, len(table))
        self.assertIn('deleted', table[-1])
        self.kept(events, mid)

    def test_dead_lettered_says_where(self):
        dlq = self.name + '.dlq'
        self.dotted(dlq)
        queue = self.dotted(self.name, _history_ttl=3600,
                            _max_claim_count=1, _dead_letter_queue=dlq)
        queue.post([{'body': 'poison', 'ttl': 300}])
        claim, _ = self.claim_soon(queue)
        claim.delete()
        self.assertEqual([], list(queue.claim(ttl=60, grace=60)))
        events = self.history(self.name)
        self.assertEqual(['posted', 'claimed', 'released', 'claimed',
                          'dead_lettered'], [e['kind'] for e in events],
                         events)
        self.assertEqual('2', events[-2]['count'])
        self.assertEqual(dlq, events[-1]['to'])
        # The copy in the dead letter queue keeps no history.
        self.assertTrue(cli_manage.keeps_no_history(
            self.stack.conf, dlq, self.project))

    def test_replay_twice_posts_once(self):
        queue = self.dotted(self.name, _history_ttl=3600)
        target = self.dotted(self.name + '.again')
        since = int(time.time())
        queue.post([{'body': {'n': n}, 'ttl': 300} for n in range(3)])
        for message in queue.pop(3):
            pass
        until = int(time.time()) + 1
        argv = ('replay', self.name, '--since', str(since), '--until',
                str(until), '--to', target.name, '--delay', '0')
        dry = self.manage(*argv, '--dry-run')
        self.assertEqual(3, len(dry))
        self.assertTrue(all('would post' in line for line in dry))
        first = self.manage(*argv)
        self.assertEqual(3, len(first))
        self.assertTrue(all(' posted as ' in line for line in first))
        again = self.manage(*argv)
        self.assertTrue(all('already posted as' in line for line in again))
        self.assertEqual(sorted(line.split()[-1] for line in first),
                         sorted(line.split()[-1] for line in again))
        bodies = sorted(m.body['n'] for m in target.messages(echo=True))
        self.assertEqual([0, 1, 2], bodies)
        found = self.history(self.name)
        self.assertEqual(['1'] * 3, [e['popped'] for e in found
                                     if e['kind'] == 'deleted'])
        self.assertEqual(3, [e['kind'] for e in found].count('replayed'))


class StoreHistory(behaviour.Helpers):
    """History tests on a store's driver (its ``history_class``); mixed
    into the store's storage test base."""

    def keep(self, seconds=3600, queue=None, project=behaviour.PROJECT,
             **more):
        self.queues.set_metadata(queue or self.queue,
                                 dict(more, _history_ttl=seconds),
                                 project=project)

    def events(self, queue=None, project=behaviour.PROJECT):
        kept = self.driver.history_class(self.driver)
        return [(e.at, e.kind, e.fields)
                for e in kept.events(queue or self.queue, project)]

    def test_pops_and_unclaimed_deletes_say_so(self):
        self.keep()
        first, second = self.post(0, 0)
        self.messages.delete(self.queue, first, behaviour.PROJECT)
        self.assertEqual(1, len(self.messages.pop(self.queue, 5,
                                                  behaviour.PROJECT)))
        deleted = [(e.message_id, e.fields)
                   for e in self.driver.history_class(self.driver).events(
                       self.queue, behaviour.PROJECT)
                   if e.kind == 'deleted']
        self.assertEqual(first, deleted[0][0])
        self.assertEqual({'claim': '', 'popped': '0'}, deleted[0][1])
        self.assertEqual(second, deleted[1][0])
        self.assertEqual('1', deleted[1][1]['popped'])
        self.assertNotEqual('', deleted[1][1]['claim'])

    def test_dotted_projects_and_queues_keep_apart(self):
        for queue, project in (('b.c', 'a'), ('c', 'a.b')):
            self.queues.create(queue, project=project)
            self.keep(queue=queue, project=project)
            self.post(0, queue=queue, project=project)
        self.assertEqual(1, len(self.events('b.c', 'a')))
        self.assertEqual(1, len(self.events('c', 'a.b')))
