"""Switching a live store between ``redis`` and ``redis.delay``."""

import io
import uuid

from oslo_utils import timeutils
from zaqar.storage import pipeline
from zaqar.storage.redis import driver as upstream_driver

from tests.fixtures import redis_store
from zaqar_delay.cmd import manage
from zaqar_delay.storage.redis import keys

PROJECT = 'p1'
CLIENT = str(uuid.uuid4())


class MigrateTest(redis_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        timeutils.set_time_override()
        self.addCleanup(timeutils.clear_time_override)
        self.upstream = upstream_driver.DataDriver(self.conf,
                                                   self.control.cache,
                                                   self.control)
        self.queues.create('q', project=PROJECT)

    def manage(self, *argv):
        out = io.StringIO()
        uri = self.conf['drivers:message_store:redis'].uri
        self.assertEqual(0, manage.main(['--uri', uri, 'redis', 'migrate']
                                        + list(argv), out=out))
        return out.getvalue()

    def claim(self, driver, limit):
        _, msgs = driver.claim_controller.create(
            'q', {'ttl': 600, 'grace': 60}, PROJECT, limit=limit)
        return [m['id'] for m in msgs]

    def index_size(self):
        return sum(self.redis.zcard(k) for k in keys.index('q', PROJECT).own())

    def test_from_redis_to_redis_delay(self):
        msgs = self.upstream.message_controller
        ready = msgs.post('q', [{'ttl': 3600, 'body': 1}], CLIENT, PROJECT)
        waiting = msgs.post('q', [{'ttl': 3600, 'body': 2, 'delay': 300}],
                            CLIENT, PROJECT)
        held = msgs.post('q', [{'ttl': 3600, 'body': 3}], CLIENT, PROJECT)
        no_due = msgs.post('q', [{'ttl': 3600, 'body': 4}], CLIENT, PROJECT)
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
        msgs = self.driver.message_controller
        ids = msgs.post('q', [{'ttl': 3600, 'body': n} for n in range(3)],
                        CLIENT, PROJECT)
        waiting = msgs.post('q', [{'ttl': 3600, 'body': 3, 'delay': 300}],
                            CLIENT, PROJECT)
        self.assertEqual(ids[:1], self.claim(self.driver, 1))

        report = self.manage('--to', 'redis')
        self.assertIn('dropped 6 index entries', report)
        self.assertEqual(0, self.index_size())

        up = pipeline.DataDriver(self.conf, self.upstream, self.control)
        # (upstream's list with include_claimed and no marker fails on
        # redis-py >= 3, so bulk_get shows what upstream reads)
        found = self.upstream.message_controller.bulk_get(
            'q', ids + waiting, PROJECT)
        self.assertEqual(ids + waiting, [m['id'] for m in found])
        self.assertEqual(1, up.queue_controller.stats(
            'q', PROJECT)['messages']['claimed'])
        self.assertEqual([ids[1]], self.claim(self.upstream, 1))
