"""History through a kill -9 of zaqar-server in the middle of a stream
of posts, claims and deletes (``tests/common/outage.py``'s users) on a
queue with ``_history_ttl``, on ``redis.delay`` and ``mongodb.delay``.

Once the stream has gone on after the restart, the queue's history
(``zaqar-delay-manage history``) is compared with the store and with
what the users were told: every event is of a change that happened
(a deleted message is gone, a message posted and not deleted is there,
a message's claimed events are as many as its claim count in the
store), and every acknowledged change has its event (each acknowledged
post, claim and delete).

On ``swift.delay`` each event is written after its change: the kill may
lose the events of the changes in flight, no more, and a message whose
``deleted`` event is lost reads as ``expired`` (``SwiftHistoryKill9Test``).
"""

import collections
import functools
import io
import json
import uuid

from bson import objectid
import redis
import testtools
from testtools import content
from zaqarclient.transport import errors as zaqar_errors

from tests.common import outage
from tests.fixtures import services
from tests.fixtures import zaqar_server
from zaqar_delay.cmd import manage
from zaqar_delay.storage import export
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import upstream

PROJECT = 'outage'      # the stream's project


class _HistoryStream(outage.Stream):

    def start(self):
        self.client().queue(self.queue, force_create=True).metadata(
            new_meta={'_default_message_delay': 1, '_history_ttl': 3600})
        for thread in self.threads:
            thread.start()


class _WatchedStream(_HistoryStream):
    """The stream, knowing the requests in flight at the kill: those
    sent before it and not answered when it began, and those sent while
    it went on. Only they can have made a change whose event the kill
    lost."""

    def __init__(self, url, queue):
        super().__init__(url, queue)
        self.sending, self.cut, self.killing = {}, [], False

    def client(self):
        cli = super().client()
        transport_for = cli._get_transport   # one transport per request

        def transport(request):
            trans = transport_for(request)
            trans.send = functools.partial(self._send, trans.send)
            return trans
        cli._get_transport = transport
        return cli

    def _send(self, send, request):
        key = object()
        what = (request.operation, dict(request.params), request.content)
        with self.lock:
            self.sending[key] = what
            if self.killing:
                self.cut.append(what)
        try:
            return send(request)
        finally:
            with self.lock:
                del self.sending[key]

    def kill(self, stack):
        with self.lock:
            self.killing = True
            self.cut += self.sending.values()
        try:
            stack.kill()
        finally:
            with self.lock:
                self.killing = False

    def in_flight(self):
        """What the requests cut by the kill could change: (messages
        posted, messages claimed, ids of messages deleted)."""
        posted = claimed = 0
        deleted = set()
        for operation, params, body in self.cut:
            if operation == 'message_post':
                posted += len(json.loads(body)['messages'])
            elif operation == 'claim_create':
                claimed += int(params.get('limit', 10))
            elif operation == 'message_delete':
                deleted.add(params['message_id'])
        return posted, claimed, deleted


class HistoryKill9(zaqar_server.StoreServer):
    stream_class = _HistoryStream

    def setUp(self):
        super().setUp()
        self.stack = self.start_server()
        self.addCleanup(self.stack.cleanup)

    def assertTold(self, stream, kinds):
        """Enough traffic, and each claim and delete a user was told of
        has its event in ``kinds`` (message id -> events)."""
        self.assertGreaterEqual(len(stream.posted), 80)
        self.assertGreaterEqual(len(stream.deleted), 20)
        for mid, deliveries in stream.delivered.items():
            names = [e['kind'] for e in kinds[mid]]
            self.assertGreaterEqual(names.count('claimed'), len(deliveries),
                                    (mid, names))
        self.assertEqual(set(), {mid for mid in stream.deleted
                                 if 'deleted' not in [
                                     e['kind'] for e in kinds[mid]]})

    def history(self, queue):
        out = io.StringIO()
        code = manage.main(['--config-file', self.stack.conf, 'history',
                            queue, '--json', '--project', PROJECT], out=out)
        self.assertEqual(0, code, out.getvalue())
        return [json.loads(line) for line in out.getvalue().splitlines()]

    def test_no_event_without_its_change_through_a_kill9(self):
        stream = self.stream_class(self.stack.url,
                                   'history-' + uuid.uuid4().hex[:8])
        stream.start()
        try:
            stream.wait_for(posted=40, delivered=20)
            self.kill(stream)
            self.stack.restart()
            stream.wait_for(posted=40, delivered=20)
        finally:
            stream.join()
        self.assertGreater(stream.errors, 0, 'the kill went unnoticed')

        kinds = collections.defaultdict(list)
        for event in self.history(stream.queue):
            kinds[event['message_id']].append(event)
        self.check(stream, kinds)

    def kill(self, stream):
        self.stack.kill()

    def check(self, stream, kinds):
        """Every event is of a change that happened; every change has
        its event."""
        queue = stream.client().queue(stream.queue)
        for mid, events in kinds.items():
            names = [e['kind'] for e in events]
            self.assertEqual('posted', names[0], (mid, names))
            claims = [int(e['count']) for e in events
                      if e['kind'] == 'claimed']
            self.assertEqual(list(range(1, len(claims) + 1)), claims,
                             (mid, names))
            if 'deleted' in names:
                self.assertEqual('deleted', names[-1], (mid, names))
                self.assertEqual(1, names.count('deleted'))
                self.assertRaises(zaqar_errors.ResourceNotFound,
                                  queue.message, mid)
                continue
            self.assertEqual(mid, queue.message(mid).id)
            self.assertEqual(len(claims), self.claim_count(mid),
                             (mid, names))
        # What the users were told happened has its event.
        self.assertEqual(set(), set(stream.posted) - set(kinds))
        self.assertTold(stream, kinds)


class RedisHistoryKill9Test(HistoryKill9, testtools.TestCase):
    store = 'redis.delay'

    def claim_count(self, mid):
        store = redis.Redis(port=self.stack.redis_port, db=0)
        return int(store.hget(mid, 'c.c'))


class MongoHistoryKill9Test(HistoryKill9, testtools.TestCase):
    store = 'mongodb.delay'

    def claim_count(self, mid):
        client = services.mongo_server().client
        prefix = 'zaqar_dev_%d_messages_p' % self.stack.port
        for name in client.list_database_names():
            if name.startswith(prefix):
                doc = client[name].messages.find_one(
                    {'_id': objectid.ObjectId(mid)})
                if doc:
                    return doc['c']['c']
        self.fail('%s not in the store' % mid)


class SwiftHistoryKill9Test(HistoryKill9, testtools.TestCase):
    """``swift.delay`` writes each event after the change it records: a
    kill can lose the event of a change in flight, and a lost
    ``deleted`` event reads as ``expired`` (doc/source/history.rst, On
    swift.delay). No event of a change that did not happen; every
    acknowledged change has its event (written before the reply); the
    events lost are no more than the requests cut by the kill could
    change."""

    store = 'swift.delay'
    stream_class = _WatchedStream
    KINDS = {'posted', 'claimed', 'claim_expired', 'deleted', 'expired'}

    def kill(self, stream):
        stream.kill(self.stack)

    def stored(self, queue, mids):
        """{message id: claim count} of the queue's messages in Swift:
        those listed and those of ``mids`` (a listing may lag)."""
        swift = export.load([self.stack.conf])[2].connection
        container = upstream.message_container(queue, PROJECT)
        listed = swift.get_container(container, full_listing=True)[1]
        found = {}
        for mid in set(mids) | {obj['name'] for obj in listed}:
            with responses.tolerating(responses.NOT_FOUND):
                found[mid] = json.loads(swift.get_object(
                    container, mid)[1]).get('claim_count', 0)
        return found

    def check(self, stream, kinds):
        stored = self.stored(stream.queue, kinds)
        posts, claims_cut, deletes = stream.in_flight()
        lost = collections.Counter()
        for mid in set(kinds) | set(stored):
            names = [e['kind'] for e in kinds.get(mid, [])]
            self.assertLessEqual(set(names), self.KINDS, (mid, names))
            claims = [int(e['count']) for e in kinds.get(mid, [])
                      if e['kind'] == 'claimed']
            self.assertEqual(sorted(set(claims)), claims, (mid, names))
            self.assertLessEqual(names.count('posted'), 1, (mid, names))
            if 'posted' in names:
                self.assertEqual('posted', names[0], (mid, names))
            else:
                lost['posted'] += 1
            ends = [n for n in names if n in ('deleted', 'expired')]
            self.assertLessEqual(len(ends), 1, (mid, names))
            if mid in stored:
                self.assertEqual([], ends, (mid, names))
                count = stored[mid]
            else:
                # Only a delete removes a message here (a ttl of 600 s,
                # no dead letter queue); a lost ``deleted`` event is
                # told as ``expired``.
                self.assertIn(mid, stream.deleting, (mid, names))
                if ends:
                    self.assertEqual(ends[0], names[-1], (mid, names))
                if 'deleted' not in names:
                    lost['deleted'] += 1
                    self.assertIn(mid, deletes, (mid, names))
                    if 'posted' in names:
                        self.assertEqual('expired', names[-1], (mid, names))
                # The delete's claim was acknowledged: its event is there.
                count = claims[-1] if claims else 0
            self.assertLessEqual(claims[-1:], [count], (mid, names))
            lost['claimed'] += count - len(claims)

        # What the users were told happened has its event.
        self.assertEqual(set(), {mid for mid in stream.posted if 'posted'
                                 not in [e['kind'] for e in kinds[mid]]})
        self.assertTold(stream, kinds)
        # At most what the requests cut by the kill changed is lost.
        self.assertLessEqual(lost['posted'], posts, lost)
        self.assertLessEqual(lost['claimed'], claims_cut, lost)
        self.assertLessEqual(lost['deleted'], len(deletes), lost)
        self.addDetail('lost', content.text_content(
            '%r of %r cut' % (dict(lost), (posts, claims_cut, len(deletes)))))
