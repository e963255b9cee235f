"""The per-queue reads of the metrics readers (each backend's
``metrics.Metrics``) on real stores, with Zaqar's
clock frozen: messages that came due, and claims that ended, before
any claim or list promoted them count as ready, from when they became
so."""

import datetime

import fixtures
from oslo_utils import timeutils

from tests.common import behaviour
from tests.common import recording
from tests.fixtures import mongodb_store
from tests.fixtures import redis_store
from tests.fixtures import swift_store
from zaqar_delay.storage import base
from zaqar_delay.storage.mongodb import metrics as mongodb
from zaqar_delay.storage.redis import metrics as redis
from zaqar_delay.storage.swift import metrics as swift

PROJECT = behaviour.PROJECT


class QueueReads(behaviour.Helpers):
    reader = None

    def read(self, queue=None):
        """The queue's stats, its times to the millisecond."""
        name = (PROJECT, queue or self.queue)
        found = self.reader(self.driver).read(
            [name], timeutils.utcnow_ts(True))[name]
        return found._replace(**{
            field: round(getattr(found, field), 3)
            for field in ('available_since', 'next_due')
            if getattr(found, field) is not None})

    def test_an_empty_queue(self):
        self.assertEqual(base.QueueStats(0, 0, 0, None, None),
                         self.read())

    def test_due_and_ended_before_any_promotion(self):
        start = timeutils.utcnow_ts(True)
        self.post(10, 10, 0, 0)
        self.assertEqual(2, len(self.claim(ttl=60)[1]))
        timeutils.advance_time_seconds(5)
        self.assertEqual(base.QueueStats(
            delayed=2, ready=0, claimed=2, available_since=None,
            next_due=round(start + 10, 3)), self.read())
        # Due at +10, claim ended at +60: nothing promoted them yet.
        timeutils.advance_time_seconds(56)
        self.assertEqual(base.QueueStats(
            delayed=0, ready=4, claimed=0,
            available_since=round(start + 10, 3), next_due=None),
            self.read())

    def test_ready_delayed_and_claimed(self):
        self.post(0, 0, 30)
        claim_id, _ = self.claim(limit=1)
        stats = self.read()
        self.assertEqual((1, 1, 1), (stats.delayed, stats.ready,
                                     stats.claimed))
        self.assertEqual(round(timeutils.utcnow_ts(True) + 30, 3),
                         stats.next_due)
        self.assertIsNotNone(stats.available_since)


class RedisQueueReadsTest(QueueReads, redis_store.DelayTestBase):
    reader = redis.Metrics


class MongoQueueReadsTest(QueueReads, mongodb_store.DelayTestBase):
    reader = mongodb.Metrics

    def setUp(self):
        super().setUp()
        # At a whole second: due times are whole seconds as the shared
        # tests expect; the milliseconds are tested below.
        timeutils.set_time_override(
            timeutils.utcnow().replace(microsecond=0))

    def test_due_times_to_the_millisecond(self):
        posted = timeutils.utcnow_ts() + 0.2504
        timeutils.set_time_override(
            datetime.datetime.fromtimestamp(posted, datetime.timezone.utc))
        self.post(10)
        due = timeutils.utcnow_ts() + 10.251
        name = (PROJECT, self.queue)

        def read(now):
            return self.reader(self.driver).read([name], now)[name]
        self.assertEqual(base.QueueStats(
            delayed=1, ready=0, claimed=0, available_since=None,
            next_due=due), read(due - 0.001))
        self.assertEqual(base.QueueStats(
            delayed=0, ready=1, claimed=0, available_since=due,
            next_due=None), read(due))

    def requests_of_a_read(self):
        calls = []
        found = mongodb.collection_of
        self.useFixture(fixtures.MonkeyPatch(
            'zaqar_delay.storage.mongodb.metrics.collection_of',
            lambda *args: recording.Recording(found(*args), calls)))
        self.read()
        return calls

    def test_a_read_asks_nothing_of_a_state_without_documents(self):
        self.assertEqual(['count_documents'] * 3, self.requests_of_a_read())

    def test_a_read_of_ready_and_delayed_messages(self):
        self.post(0, 30)
        # Three state counts, the due count of the waiting ones, the
        # first ready message and the next due.
        self.assertEqual(['count_documents'] * 4 + ['find_one'] * 2,
                         self.requests_of_a_read())


class SwiftQueueReadsTest(QueueReads, swift_store.DelayTestBase):
    reader = swift.Metrics

    def setUp(self):
        super().setUp()
        # The shared reads post at a whole second: their due times are
        # the same in whole seconds and to the millisecond.
        timeutils.set_time_override(
            timeutils.utcnow().replace(microsecond=0))

    def test_due_and_ended_before_any_promotion(self):
        start = timeutils.utcnow_ts()
        self.post(10, 10, 0, 0)
        self.assertEqual(2, len(self.claim(ttl=60)[1]))
        timeutils.advance_time_seconds(5)
        self.assertEqual(base.QueueStats(
            delayed=2, ready=0, claimed=2, available_since=None,
            next_due=start + 10), self.read())
        timeutils.advance_time_seconds(56)
        # Due at +10, claim ended at +60: the messages that came due
        # count as ready; those of the claim as claimed until a claim or
        # list gives them back (their locks are the claimed count).
        self.assertEqual(base.QueueStats(
            delayed=0, ready=2, claimed=2, available_since=start + 10,
            next_due=None), self.read())

    def read_at(self, now):
        name = (PROJECT, self.queue)
        return self.reader(self.driver).read([name], now)[name]

    def test_due_to_the_millisecond(self):
        timeutils.set_time_override(
            timeutils.utcnow().replace(microsecond=250000))
        due = timeutils.utcnow_ts(microsecond=True) + 1
        self.post(1)
        self.assertEqual(base.QueueStats(
            delayed=1, ready=0, claimed=0, available_since=None,
            next_due=due), self.read_at(due - 0.001))
        self.assertEqual(base.QueueStats(
            delayed=0, ready=1, claimed=0, available_since=due,
            next_due=None), self.read_at(due))
