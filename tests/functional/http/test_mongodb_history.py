"""Message history on ``mongodb.delay``, through a real zaqar-server and
python-zaqarclient: the redis tests (``test_history``) on a MongoDB
store (secantusdb unless ``ZAQAR_DELAY_TEST_MONGODB_URL`` names one).

Retention is MongoDB's TTL monitor's, which runs once a minute (on
secantusdb as on mongod): ``MongoHistoryRetentionTest`` waits for it and
is a slow test; the fast tests check the document it will remove. A
message's expiry is ended early by setting its ``x`` (the expiry of a
message that keeps history) to now.
"""

import datetime
import time

from bson import objectid
from zaqarclient.transport import errors as client_errors

from tests.common import manage as cli_manage
from tests.fixtures import services
from tests.functional.http import test_history

PROCESSED = 4


class _Mongo:
    store = 'mongodb.delay'

    @classmethod
    def setUpClass(cls):
        cls.server_options = dict(test_history.RedisHistoryTest.
                                  server_options,
                                  message_store=cls.store,
                                  mongodb_url=services.mongo_server().url)
        super().setUpClass()

    def store_queues(self):
        # A MongoDB message store keeps no index of queues: the
        # catalogue's listing (checked by the tests) is the index.
        return None

    def messages(self):
        """The store's message collections (one per partition)."""
        client = services.mongo_server().client
        prefix = 'zaqar_dev_%d_messages_' % self.stack.port  # fifo_p, p
        found = [client[name].messages
                 for name in client.list_database_names()
                 if name.startswith(prefix)]
        self.assertTrue(found, client.list_database_names())
        return found

    def document(self, message_id):
        for collection in self.messages():
            doc = collection.find_one({'_id': objectid.ObjectId(message_id)})
            if doc:
                return doc
        return None

    def expire_now(self, mid):
        """End message ``mid``'s life now, as its ttl would: its expiry
        ``x`` (a message that keeps history) now."""
        now = int(time.time())
        self.assertEqual(1, sum(collection.update_one(
            {'_id': objectid.ObjectId(mid), 'x': {'$gt': now}},
            {'$set': {'x': now}}).modified_count
            for collection in self.messages()))
        return now

    def wait_ttl_monitor(self, queue, timeout=150):
        """Until the queue's history is empty (the TTL monitor's pass)."""
        deadline = time.time() + timeout
        while self.history(queue):
            self.assertLess(time.time(), deadline, 'history kept')
            time.sleep(1)


class MongoHistoryTest(_Mongo, test_history.RedisHistoryTest):

    def test_expired_is_kept_history_ttl_more(self):
        queue = self.dotted(self.name, _history_ttl=3600)
        mid = queue.post([{'body': 'late', 'ttl': 60}])['resources'][0]
        mid = mid.rsplit('/', 1)[-1]
        doc = self.document(mid)
        # Kept past its expiry x for its history: e, the TTL index's,
        # _history_ttl later.
        self.assertEqual(datetime.datetime.utcfromtimestamp(doc['x'] + 3600),
                         doc['e'])
        ended = self.expire_now(mid)
        self.assertRaises(client_errors.ResourceNotFound, queue.message, mid)
        self.assertEqual([], list(queue.claim(ttl=60, grace=60)))
        doc = self.document(mid)
        self.assertEqual((PROCESSED, ended), (doc['s'], doc['a']))
        self.assertEqual(datetime.datetime.utcfromtimestamp(ended + 3600),
                         doc['e'])
        events = self.history(self.name)
        self.assertEqual(['posted', 'expired'], [e['kind'] for e in events])
        self.assertEqual(ended, events[-1]['at'])

    def test_history_is_gone_after_its_ttl(self):
        queue = self.dotted(self.name, _history_ttl=5)
        mid = queue.post([{'body': 'short-lived', 'ttl': 300}])['resources']
        mid = mid[0].rsplit('/', 1)[-1]
        queue.message(mid).delete()
        events = self.history(self.name)
        self.assertEqual(['posted', 'deleted'], [e['kind'] for e in events])
        doc = self.document(mid)
        self.assertEqual(PROCESSED, doc['s'])
        kept_until = datetime.datetime.fromtimestamp(
            events[-1]['at'] + 5, datetime.timezone.utc).replace(tzinfo=None)
        self.assertEqual(kept_until, doc['e'])
        ttl, = [index for index in self.messages()[0].list_indexes()
                if index.get('expireAfterSeconds') is not None]
        self.assertEqual({'e': 1}, dict(ttl['key']))
        self.assertEqual(0, ttl['expireAfterSeconds'])
        # Processed: gone for Zaqar (get, list, stats, claims).
        self.assertRaises(client_errors.ResourceNotFound, queue.message, mid)
        self.assertEqual([], list(queue.messages(echo=True)))
        self.assertEqual(0, queue.stats['messages']['total'])
        self.assertEqual([], list(queue.claim(ttl=60, grace=60)))
        # Queues without _history_ttl keep none, and delete documents.
        plain = self.dotted(self.name + '.plain')
        mid = plain.post([{'body': 'x', 'ttl': 300}])['resources'][0]
        self.assertNotIn('h', self.document(mid.rsplit('/', 1)[-1]))
        plain.message(mid.rsplit('/', 1)[-1]).delete()
        self.assertIsNone(self.document(mid.rsplit('/', 1)[-1]))
        self.assertTrue(cli_manage.keeps_no_history(
            self.stack.conf, self.name + '.plain', test_history.PROJECT))


class MongoFIFOHistoryTest(MongoHistoryTest):
    store = 'mongodb.fifo.delay'


class MongoHistoryRetentionTest(_Mongo, test_history.RedisHistoryTest):
    """Slow: waits for MongoDB's TTL monitor (once a minute)."""

    def test_history_is_gone_after_its_ttl(self):
        queue = self.dotted(self.name, _history_ttl=5)
        mid = queue.post([{'body': 'short-lived', 'ttl': 300}])['resources']
        queue.message(mid[0].rsplit('/', 1)[-1]).delete()
        self.assertEqual(['posted', 'deleted'],
                         [e['kind'] for e in self.history(self.name)])
        self.wait_ttl_monitor(self.name)
        self.assertIsNone(self.document(mid[0].rsplit('/', 1)[-1]))

    def test_expired_unseen(self):
        # Expired, kept _history_ttl (5 s) more, then removed by the TTL
        # monitor.
        queue = self.dotted(self.name, _history_ttl=5)
        mid = queue.post([{'body': 'late', 'ttl': 60}])['resources'][0]
        mid = mid.rsplit('/', 1)[-1]
        self.expire_now(mid)
        self.assertEqual([], list(queue.claim(ttl=60, grace=60)))
        self.assertEqual(['posted', 'expired'],
                         [e['kind'] for e in self.history(self.name)])
        self.wait_ttl_monitor(self.name)
        self.assertIsNone(self.document(mid))


# Only the two tests above are the retention test's own.
for _name in dir(test_history.RedisHistoryTest):
    if _name.startswith('test_') and _name not in vars(
            MongoHistoryRetentionTest):
        setattr(MongoHistoryRetentionTest, _name, None)
