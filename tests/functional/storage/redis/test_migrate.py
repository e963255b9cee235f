"""Switching a live store between ``redis`` and ``redis.delay``."""

import io
import uuid

from oslo_utils import timeutils
from zaqar.storage import pipeline
from zaqar.storage.redis import driver as upstream_driver

from tests.common import behaviour
from tests.fixtures import redis_store
from zaqar_delay.cmd import manage
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import readies

PROJECT = 'p1'
CLIENT = str(uuid.uuid4())


class MigrateTest(redis_store.DelayTestBase):
    queue = 'q'
    project = PROJECT

    def setUp(self):
        super().setUp()
        behaviour.freeze_clock(self)
        # Upstream's drivers, management store included: its names.
        self.up_control = upstream_driver.ControlDriver(self.conf,
                                                        self.control.cache)
        self.upstream = upstream_driver.DataDriver(
            self.conf, self.control.cache, self.up_control)

    def create(self, data):
        """Create the queue through ``data`` and its management store."""
        pipeline.DataDriver(self.conf, data, data.control_driver
                            ).queue_controller.create(self.queue,
                                                      project=self.project)

    def manage(self, *argv):
        out = io.StringIO()
        uri = self.conf['drivers:message_store:redis'].uri
        self.assertEqual(0, manage.main(['--uri', uri, 'redis', 'migrate']
                                        + list(argv), out=out))
        return out.getvalue()

    def claim(self, driver, limit):
        _, msgs = driver.claim_controller.create(
            self.queue, {'ttl': 600, 'grace': 60}, self.project, limit=limit)
        return [m['id'] for m in msgs]

    def index_size(self):
        index = keys.index(self.queue, self.project)
        return (sum(self.redis.zcard(k) for k in
                    index.own() + keys.chunks(self.redis, index))
                + self.redis.exists(*index.chunk_lists))

    def test_from_ready_set_to_ready_chunks(self):
        """A store written before ready chunks: ``delay.ready``, rank ->
        id, is still claimed and listed from, then replaced."""
        self.create(self.driver)
        msgs = self.driver.message_controller

        def post(count, **more):
            return msgs.post(self.queue, [dict(ttl=3600, body=n, **more)
                                          for n in range(count)],
                             CLIENT, self.project)

        old = post(100) + post(100) + post(100)   # three chunks
        waiting = post(1, delay=300)
        index = keys.index(self.queue, self.project)
        # Today's layout, as the scripts before chunks wrote it.
        self.redis.unlink(index.ready_chunks, index.ready_count,
                          *keys.chunks(self.redis, index))
        self.redis.zadd(index.ready, {
            mid: self.redis.zscore(index.messages, mid) for mid in old})
        self.assertEqual(old, readies.ids(self.redis, index))
        new = post(5)
        # Released, the first 10 go to chunks, ranks below the old set's.
        claim_id, _ = self.driver.claim_controller.create(
            self.queue, {'ttl': 600, 'grace': 60}, self.project, limit=10)
        self.driver.claim_controller.delete(self.queue, claim_id,
                                            self.project)
        self.assertEqual(old[:12], self.claim(self.driver, 12))
        self.driver.claim_controller.delete(
            self.queue, self.driver.claim_controller.create(
                self.queue, {'ttl': 600, 'grace': 60}, self.project,
                limit=2)[0], self.project)   # old[12:14], released
        listed = msgs.list(self.queue, self.project, limit=5,
                           include_delayed=False)
        self.assertEqual(old[12:17], [m['id'] for m in next(listed)])
        self.assertEqual(sorted(old[12:] + new),
                         sorted(readies.ids(self.redis, index)))
        self.assertEqual(old[14:], [mid.decode() for mid in self.redis.zrange(
            index.ready, 0, -1)])

        self.assertIn('ready 293, waiting 1, claimed 12, gone 0',
                      self.manage('--to', 'redis.delay'))
        self.assertEqual(0, self.redis.exists(index.ready))
        for chunk in keys.chunks(self.redis, index):
            self.assertIn(self.redis.object('encoding', chunk),
                          (b'ziplist', b'listpack'))
        self.assertEqual(old[12:] + new, readies.ids(self.redis, index))
        self.assertIn('ready 293, waiting 1, claimed 12, gone 0',
                      self.manage('--to', 'redis.delay'))
        self.assertEqual(old[12:] + new, readies.ids(self.redis, index))
        self.assertEqual(b'293', self.redis.get(index.ready_count))
        taken = []
        for _ in range(10):
            taken += self.claim(self.driver, 40)
        self.assertEqual(old[12:] + new, taken)
        self.assertEqual(0, self.redis.exists(index.ready_chunks,
                                              index.ready_count))
        timeutils.advance_time_seconds(300)
        self.assertEqual(waiting, self.claim(self.driver, 10))

    def test_from_unchunked_redis_delay(self):
        """A store written before waiting chunks: its sets rank -> id
        and due time -> id are replaced."""
        self.create(self.driver)
        msgs = self.driver.message_controller
        ready = msgs.post(self.queue, [{'ttl': 3600, 'body': 1}], CLIENT,
                          self.project)
        waiting = msgs.post(self.queue, [{'ttl': 3600, 'body': 2,
                                          'delay': 300}], CLIENT,
                            self.project)
        index = keys.index(self.queue, self.project)
        old_waiting, old_due = index.unchunked
        due = float(self.redis.hget(waiting[0], 'd'))
        rank = self.redis.zscore(index.messages, waiting[0])
        self.redis.unlink(index.waiting, index.due, index.waiting_count,
                          index.chunk(int(rank) // keys.CHUNK))
        self.redis.zadd(old_waiting, {waiting[0]: rank})
        self.redis.zadd(old_due, {waiting[0]: due})
        timeutils.advance_time_seconds(300)
        self.assertEqual(ready, self.claim(self.driver, 10))

        timeutils.advance_time_seconds(-300)
        self.assertIn('ready 0, waiting 1, claimed 1',
                      self.manage('--to', 'redis.delay'))
        self.assertEqual(0, self.redis.exists(old_waiting, old_due))
        self.assertEqual([], self.claim(self.driver, 10))
        timeutils.advance_time_seconds(300)
        self.assertEqual(waiting, self.claim(self.driver, 10))

    def test_from_redis_to_redis_delay(self):
        self.create(self.upstream)
        msgs = self.upstream.message_controller

        def post(body, **more):
            return msgs.post(self.queue, [dict(ttl=3600, body=body, **more)],
                             CLIENT, self.project)

        ready = post(1)
        waiting = post(2, delay=300)
        held = post(3)
        no_due = post(4)
        self.redis.hdel(no_due[0], 'd')
        self.redis.hset(ready[0], 'c.e', 0)
        self.assertEqual([ready[0]], self.claim(self.upstream, 1))
        self.redis.hset(ready[0], 'c', '')   # the claim was released
        self.assertEqual(0, self.index_size())

        report = self.manage('--to', 'redis.delay', '--dry-run')
        self.assertIn('ready 3, waiting 1, claimed 0, gone 0', report)
        self.assertIn('dry run', report)
        self.assertEqual(0, self.index_size())

        self.redis.hset(held[0], 'c', str(uuid.uuid4()))
        self.redis.hset(held[0], 'c.e', timeutils.utcnow_ts() + 600)
        report = self.manage('--to', 'redis.delay')
        self.assertIn('ready 2, waiting 1, claimed 1, gone 0', report)
        self.assertEqual(sorted(ready + no_due),
                         sorted(self.claim(self.driver, 10)))
        timeutils.advance_time_seconds(300)
        self.assertEqual(waiting, self.claim(self.driver, 10))
        self.assertIn('ready 0, waiting 0, claimed 4',
                      self.manage('--to', 'redis.delay'))

    def test_from_redis_delay_to_redis(self):
        # The management store stays redis.delay's.
        self.upstream = upstream_driver.DataDriver(
            self.conf, self.control.cache, self.control)
        self.create(self.driver)
        msgs = self.driver.message_controller
        ids = msgs.post(self.queue,
                        [{'ttl': 3600, 'body': n} for n in range(3)],
                        CLIENT, self.project)
        waiting = msgs.post(self.queue,
                            [{'ttl': 3600, 'body': 3, 'delay': 300}],
                            CLIENT, self.project)
        self.assertEqual(ids[:1], self.claim(self.driver, 1))

        report = self.manage('--to', 'redis')
        # ready 2, claimed and claim expiry 1 each, waiting 1
        self.assertIn('dropped 5 index entries', report)
        self.assertEqual(0, self.index_size())

        up = pipeline.DataDriver(self.conf, self.upstream, self.control)
        # (upstream's list with include_claimed and no marker fails on
        # redis-py >= 3, so bulk_get shows what upstream reads)
        found = self.upstream.message_controller.bulk_get(
            self.queue, ids + waiting, self.project)
        self.assertEqual(ids + waiting, [m['id'] for m in found])
        self.assertEqual(1, up.queue_controller.stats(
            self.queue, self.project)['messages']['claimed'])
        self.assertEqual([ids[1]], self.claim(self.upstream, 1))


class DottedNamesMigrateTest(MigrateTest):
    """Dots in both: upstream's key prefix cannot be split, and need not
    be (``keys.scoped_index``)."""
    queue = 'orders.eu'
    project = 'tenant.a/b:c'
