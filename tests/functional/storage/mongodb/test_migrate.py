"""Switching a live store between ``mongodb`` and ``mongodb.delay``."""

import datetime
import io
import uuid

from oslo_utils import timeutils
from zaqar.storage.mongodb import driver as upstream_driver

from tests.fixtures import mongodb_store
from zaqar_delay.cmd import manage
from zaqar_delay.storage.mongodb import queries

PROJECT = 'p1'
CLIENT = str(uuid.uuid4())


class MigrateTest(mongodb_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        timeutils.set_time_override()
        self.addCleanup(timeutils.clear_time_override)
        self.upstream = upstream_driver.DataDriver(
            self.conf, self.control.cache, self.control)
        self.queues.create('q', project=PROJECT)

    def manage(self, *argv):
        out = io.StringIO()
        settings = self.conf['drivers:message_store:mongodb']
        self.assertEqual(0, manage.main(
            ['--uri', settings.uri, '--database', settings.database,
             '--partitions', str(settings.partitions),
             'mongodb', 'migrate'] + list(argv), out=out))
        return out.getvalue()

    def claim(self, driver, limit=10):
        _, msgs = driver.claim_controller.create(
            'q', {'ttl': 600, 'grace': 60}, PROJECT, limit=limit)
        return [m['id'] for m in msgs]

    def post(self, driver, delay):
        return driver.message_controller.post(
            'q', [{'ttl': 3600, 'body': delay, 'delay': delay}], CLIENT,
            PROJECT)

    def indexes(self):
        found = set()
        for coll in self.driver.message_controller._collections:
            found |= set(coll.index_information())
        return found & set(queries.INDEXES)

    def test_from_mongodb_to_mongodb_delay(self):
        held = self.post(self.upstream, 0)
        self.assertEqual(held, self.claim(self.upstream, 1))
        ready = self.post(self.upstream, 0)
        waiting = self.post(self.upstream, 300)
        self.assertEqual([], self.claim(self.driver))

        report = self.manage('--to', 'mongodb.delay', '--dry-run')
        self.assertIn('indexed 3 messages for mongodb.delay (dry run',
                      report)
        self.assertIn('ready 1, waiting 1, claimed 1', report)
        self.assertEqual([], self.claim(self.driver))

        self.manage('--to', 'mongodb.delay')
        self.assertEqual(ready, self.claim(self.driver))
        timeutils.advance_time_seconds(300)
        self.assertEqual(waiting, self.claim(self.driver))
        self.assertIn('ready 0, waiting 0, claimed 3',
                      self.manage('--to', 'mongodb.delay'))

    def test_from_mongodb_delay_to_mongodb(self):
        ready = self.post(self.driver, 0)
        self.post(self.driver, 300)
        self.assertEqual(set(queries.INDEXES), self.indexes())

        report = self.manage('--to', 'mongodb')
        self.assertIn('the store is ready for mongodb', report)
        self.assertEqual(set(), self.indexes())
        listed = next(self.upstream.message_controller.list(
            'q', PROJECT, include_claimed=True, include_delayed=True))
        self.assertEqual(2, len(list(listed)))
        self.assertEqual(ready, self.claim(self.upstream, 1))

    def half_a_second_in(self):
        timeutils.set_time_override(
            timeutils.utcnow().replace(microsecond=500000))

    def advance_ms(self, ms):
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=ms))

    def test_whole_second_due_times_of_mongodb_are_due_at_that_second(self):
        # mongodb writes ``d`` as its whole second plus the delay.
        self.half_a_second_in()
        (mid,) = self.post(self.upstream, 1)
        self.manage('--to', 'mongodb.delay')
        self.advance_ms(499)
        self.assertEqual([], self.claim(self.driver))
        self.advance_ms(1)
        self.assertEqual([mid], self.claim(self.driver))

    def test_mongodb_reads_due_times_to_the_millisecond(self):
        # Due 1.5 s into the next second: mongodb's claim, which judges
        # by whole seconds, takes it at the second after, never before
        # (it leaves delayed messages only on a queue with a default
        # delay).
        self.queues.set_metadata('q', {'_default_message_delay': 1},
                                 project=PROJECT)
        self.half_a_second_in()
        (mid,) = self.post(self.driver, 1)
        self.manage('--to', 'mongodb')
        self.advance_ms(1499)
        self.assertEqual([], self.claim(self.upstream))
        self.advance_ms(1)
        self.assertEqual([mid], self.claim(self.upstream))
