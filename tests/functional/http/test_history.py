"""Message history on ``redis.delay``, through a real zaqar-server and
python-zaqarclient, read and replayed with ``zaqar-delay-manage``.

Waits here are real and short (a 1 s delay, a 1 s backoff, a 5 s
history ttl). Zaqar's shortest message ttl is 60 s: the expiry test ends
a message's life early the way redis ends it, by its hash's expiry.
Queue names are dotted, which Zaqar accepts and python-zaqarclient's
``Queue`` refuses when made: ``dotted`` names the client's queue after
it is made (every request of the client then uses that name), and
creates it with its metadata in the PUT (the client's metadata PATCH
drops Zaqar's reserved dead-letter keys).
"""

import time
import uuid

import redis
import requests
from zaqarclient.transport import errors as client_errors

from tests.common import history
from tests.common import manage as cli_manage
from tests.fixtures import zaqar_server

PROJECT = 'tenant.a/b:c'


class RedisHistoryTest(history.ServerHistory,
                       zaqar_server.ServerTestCase):

    project = PROJECT
    server_options = {'max_delay': 3600}

    def store_queues(self):
        """How many queues the message store's own index holds
        (redis: upstream's ``msgset_index``), None for a store with
        none."""
        return redis.Redis(port=self.stack.redis_port).zcard('msgset_index')

    def test_bad_history_ttl_is_a_400(self):
        queue = self.dotted(self.name)
        for value in (0, -1, 'week', 7 * 86400 + 1, True):
            self.assertRaises(client_errors.MalformedRequest,
                              queue.metadata,
                              new_meta={'_history_ttl': value})
            self.assertRaises(client_errors.MalformedRequest, self.dotted,
                              self.name + '.new', _history_ttl=value)

    def expire_now(self, mid):
        """End message ``mid``'s life now, as its ttl would (redis: its
        hash's expiry); when it ended (UNIX seconds)."""
        store = redis.Redis(port=self.stack.redis_port, db=0)
        self.assertTrue(store.pexpire(mid, 1))
        while store.exists(mid):
            time.sleep(0.05)
        return int(time.time())

    def test_expired_unseen(self):
        queue = self.dotted(self.name, _history_ttl=3600)
        mid = queue.post([{'body': 'late', 'ttl': 60}])['resources'][0]
        mid = mid.rsplit('/', 1)[-1]
        before = int(time.time())
        ended = self.expire_now(mid)
        self.assertEqual([], list(queue.claim(ttl=60, grace=60)))
        self.assertEqual([], list(queue.messages(echo=True)))
        events = self.history(self.name)
        self.assertEqual(['posted', 'expired'], [e['kind'] for e in events])
        self.assertEqual('', events[-1]['count'])     # never claimed
        self.assertTrue(before <= events[-1]['at'] <= max(
            ended, int(time.time())), events)

    def test_history_is_gone_after_its_ttl(self):
        queue = self.dotted(self.name, _history_ttl=5)
        queue.post([{'body': 'short-lived', 'ttl': 300}])
        self.assertEqual(['posted'],
                         [e['kind'] for e in self.history(self.name)])
        deadline = time.time() + 30
        while self.history(self.name):
            self.assertLess(time.time(), deadline, 'history kept')
            time.sleep(0.5)
        # Queues without _history_ttl keep none.
        plain = self.dotted(self.name + '.plain')
        plain.post([{'body': 'x', 'ttl': 300}])
        self.assertTrue(cli_manage.keeps_no_history(
            self.stack.conf, self.name + '.plain', PROJECT))

    def test_replay_to_a_new_queue_makes_a_whole_queue(self):
        # Made as a post makes it: in the catalogue and in the store's
        # own index of queues (metric series, Zaqar's collection).
        queue = self.dotted(self.name, _history_ttl=3600)
        since = int(time.time())
        queue.post([{'body': {'n': 1}, 'ttl': 300}])
        before = self.store_queues()
        target = self.name + '.new'
        self.manage('replay', self.name, '--since', str(since), '--until',
                    str(int(time.time()) + 1), '--to', target)
        if before is not None:
            self.assertEqual(before + 1, self.store_queues())
        self.assertIn(target, self.listed_queues())

    def listed_queues(self):
        """The project's queue names, every page of Zaqar's list."""
        names, marker = [], ''
        while True:
            page = requests.get(
                self.stack.url + '/v2/queues', timeout=30,
                params={'limit': 20, 'marker': marker},
                headers={'Client-ID': str(uuid.uuid4()),
                         'X-Project-ID': PROJECT}).json()
            if not page['queues']:
                return names
            names += [q['name'] for q in page['queues']]
            marker = names[-1]

    def test_replay_says_why_it_does_nothing(self):
        kept = self.dotted(self.name, _history_ttl=3600)
        kept.post([{'body': 1, 'ttl': 300}])
        plain = self.dotted(self.name + '.plain')
        plain.post([{'body': 1, 'ttl': 300}])
        now = int(time.time())
        status, out, err = cli_manage.refused(
            self.stack.conf, 'replay', self.name, '--since', str(now + 60),
            '--until', str(now), '--project', PROJECT)
        self.assertEqual((2, ''), (status, out))
        self.assertIn('--since', err)
        status, out, err = cli_manage.refused(
            self.stack.conf, 'replay', self.name + '.plain', '--since',
            str(now - 60), '--until', str(now + 60), '--project', PROJECT)
        self.assertEqual((1, ''), (status, out))
        self.assertIn('keeps no history', err)
        self.assertEqual(1, len(err.strip().splitlines()), err)
