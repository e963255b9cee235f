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
"""

import collections
import io
import json
import uuid

from bson import objectid
import redis
import testtools
from zaqarclient.transport import errors as zaqar_errors

from tests.common import outage
from tests.fixtures import services
from tests.fixtures import zaqar_server
from zaqar_delay.cmd import manage

PROJECT = 'outage'      # the stream's project


class _HistoryStream(outage.Stream):

    def start(self):
        self.client().queue(self.queue, force_create=True).metadata(
            new_meta={'_default_message_delay': 1, '_history_ttl': 3600})
        for thread in self.threads:
            thread.start()


class HistoryKill9:
    store = None

    def stack_options(self):
        return {}

    def setUp(self):
        super().setUp()
        self.stack = zaqar_server.ZaqarServer(
            message_store=self.store, **self.stack_options()).start()
        self.addCleanup(self.stack.cleanup)

    def history(self, queue):
        out = io.StringIO()
        code = manage.main(['--config-file', self.stack.conf, 'history',
                            queue, '--json', '--project', PROJECT], out=out)
        self.assertEqual(0, code, out.getvalue())
        return [json.loads(line) for line in out.getvalue().splitlines()]

    def test_no_event_without_its_change_through_a_kill9(self):
        stream = _HistoryStream(self.stack.url,
                                'history-' + uuid.uuid4().hex[:8])
        stream.start()
        try:
            stream.wait_for(posted=40, delivered=20)
            self.stack.kill()
            self.stack.restart()
            stream.wait_for(posted=40, delivered=20)
        finally:
            stream.join()
        self.assertGreater(stream.errors, 0, 'the kill went unnoticed')

        kinds = collections.defaultdict(list)
        for event in self.history(stream.queue):
            kinds[event['message_id']].append(event)
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
        self.assertGreaterEqual(len(stream.posted), 80)
        self.assertGreaterEqual(len(stream.deleted), 20)
        self.assertEqual(set(), set(stream.posted) - set(kinds))
        for mid, deliveries in stream.delivered.items():
            names = [e['kind'] for e in kinds[mid]]
            self.assertGreaterEqual(names.count('claimed'), len(deliveries),
                                    (mid, names))
        self.assertEqual(set(), {mid for mid in stream.deleted
                                 if 'deleted' not in [
                                     e['kind'] for e in kinds[mid]]})


class RedisHistoryKill9Test(HistoryKill9, testtools.TestCase):
    store = 'redis.delay'

    def claim_count(self, mid):
        store = redis.Redis(port=self.stack.redis_port, db=0)
        return int(store.hget(mid, 'c.c'))


class MongoHistoryKill9Test(HistoryKill9, testtools.TestCase):
    store = 'mongodb.delay'

    def stack_options(self):
        return {'mongodb_url': services.mongo_server().url}

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
