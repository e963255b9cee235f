"""The plans the MongoDB server picks for ``mongodb.delay``'s queries.

One queue holds 2,000 delayed messages ahead of 50 claimed and 5 ready
ones. Each query of ``zaqar_delay.storage.mongodb.queries`` is explained
on the test server (secantusdb, or the server of
``ZAQAR_DELAY_TEST_MONGODB_URL``) and must win with its index and examine:

- on the claim path (ready scan and pop, promotion, a claim's read-back
  and dead letters, a page of ready messages): at most limit + 1 keys,
  on every server;
- for a page of claimed or delayed messages, first/last and the next due
  time, whose results are those messages: at most limit + 1 keys on a
  server that stops reading at the limit (MongoDB); secantusdb reads
  every key in the bounds first, so there it reads that state's keys and
  never another state's.
"""

import uuid

from oslo_utils import timeutils
import testtools
from zaqar.storage.mongodb import driver as upstream_driver
from zaqar.tests import base as zaqar_base

from tests.fixtures import services
from tests.fixtures import mongodb_store
from zaqar_delay.storage.mongodb import queries

DELAYED, CLAIMED, READY = 2000, 50, 5
LIMIT = 10
PROJECT = 'plans'


class QueryPlanTest(mongodb_store.MongoMixin, zaqar_base.TestBase):
    config_file = mongodb_store.CONF

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = services.mongo_server()
        # secantusdb reads every key in a query's bounds before the limit.
        cls.stops_at_limit = cls.server.process is None

    fixture = None

    def setUp(self):
        super().setUp()
        if QueryPlanTest.fixture is None:   # built once: it takes seconds
            QueryPlanTest.fixture = self._fill()
        self.data, self.queue, self.claim_ids = self.fixture
        self.collection = self.data.message_controller.collection(
            self.queue, PROJECT)
        self.scope = '%s/%s' % (PROJECT, self.queue)
        self.now = timeutils.utcnow_ts()

    def _fill(self):
        control, data = mongodb_store.drivers(
            self.conf, control_driver=upstream_driver.ControlDriver)
        queue = 'q-' + uuid.uuid4().hex[:8]
        control.queue_controller.create(queue, project=PROJECT)
        messages = data.message_controller
        client = str(uuid.uuid4())
        for start in range(0, DELAYED, 1000):
            messages.post(queue, [{'ttl': 7200, 'body': i, 'delay': 600}
                                  for i in range(1000)], client,
                          project=PROJECT)
        messages.post(queue, [{'ttl': 600, 'body': i, 'delay': 0}
                              for i in range(CLAIMED + READY)], client,
                      project=PROJECT)
        claim_ids = [
            data.claim_controller.create(queue, {'ttl': 600, 'grace': 60},
                                         project=PROJECT, limit=LIMIT)[0]
            for _ in range(CLAIMED // LIMIT)]
        QueryPlanTest.databases = (data, data.message_databases +
                                   [control.queues_database])
        return data, queue, claim_ids

    @classmethod
    def tearDownClass(cls):
        if cls.fixture is not None:
            data, databases = cls.databases
            for db in databases:
                data.connection.drop_database(db)
            cls.fixture = None
        super().tearDownClass()

    def explain(self, query, limit):
        plan = queries.find(self.collection, query, limit=limit).explain()
        stats = plan.get('executionStats', {})
        return (mongodb_store.winning_index(plan),
                stats.get('totalKeysExamined'))

    def assert_flat(self, query, limit=LIMIT):
        """The claim path: limit + 1 keys at most, on every server."""
        index, keys = self.explain(query, limit)
        self.assertEqual(query.index, index)
        self.assertLessEqual(keys, limit + 1)

    def assert_own_state(self, query, in_bounds, limit=LIMIT):
        """Limit + 1 keys where the server stops at the limit; else the
        keys of the query's own state (``in_bounds``) and no others."""
        index, keys = self.explain(query, limit)
        self.assertEqual(query.index, index)
        self.assertLessEqual(keys, limit + 1 if self.stops_at_limit
                             else in_bounds)

    # the claim path

    def test_ready_scan_of_a_claim_or_pop(self):
        self.assert_flat(queries.in_state(self.scope, queries.READY))

    def test_page_of_ready_messages_after_a_marker(self):
        first = queries.find(self.collection,
                             queries.in_state(self.scope, queries.READY),
                             limit=1)[0]['k']
        self.assert_flat(queries.in_state(self.scope, queries.READY,
                                          after=first))

    def test_promotion_of_ended_waits(self):
        self.assert_flat(queries.ended(self.scope, queries.WAITING,
                                       self.now), limit=100)

    def test_promotion_of_ended_claims(self):
        self.assert_flat(queries.ended(self.scope, queries.CLAIMED,
                                       self.now), limit=100)

    def test_read_back_and_dead_letters_of_a_claim(self):
        from zaqar.storage.mongodb import utils
        cid = utils.to_oid(self.claim_ids[-1])
        self.assert_flat(queries.of_claim(self.scope, cid))

    # results that are the claimed or delayed messages themselves

    def test_page_of_claimed_messages(self):
        self.assert_own_state(
            queries.in_state(self.scope, queries.CLAIMED), CLAIMED)

    def test_page_of_delayed_messages(self):
        self.assert_own_state(
            queries.in_state(self.scope, queries.WAITING), DELAYED)

    def test_last_delayed_message(self):
        self.assert_own_state(
            queries.in_state(self.scope, queries.WAITING, sort=-1),
            DELAYED, limit=1)

    def test_next_due_time(self):
        self.assert_own_state(
            queries.ending_later(self.scope, queries.WAITING, self.now),
            DELAYED, limit=1)


class PushPlanTest(testtools.TestCase):
    """A dispatcher's next due time, bounded by the time it would look
    again anyway: the keys of the pushes due before then, however many
    are pending later (secantusdb reads every key in the bounds)."""

    LATER, SOON = 2000, 3

    def test_next_due_reads_only_what_is_due_before_the_bound(self):
        server = services.mongo_server()
        name = 'zd_push_plans_' + uuid.uuid4().hex[:8]
        self.addCleanup(server.client.drop_database, name)
        collection = server.client[name].messages
        collection.create_index(queries.PUSH_INDEX, name='delay_push')
        now = 1800000000.0
        collection.insert_many(
            [{'p_q': 'p/q', 'pa': now + 3600 + i} for i in range(self.LATER)]
            + [{'p_q': 'p/q', 'pa': now + i / 10} for i in range(self.SOON)]
            + [{'p_q': 'p/q'}])                 # no pending push
        bounded = queries.push_next(before=now + 0.5)
        plan = queries.find(collection, bounded, limit=1).explain()
        self.assertEqual('delay_push', mongodb_store.winning_index(plan))
        self.assertLessEqual(plan['executionStats']['totalKeysExamined'],
                             self.SOON + 1)
        (first,) = queries.find(collection, bounded, limit=1)
        self.assertEqual(now, first['pa'])
        self.assertEqual([], list(queries.find(
            collection, queries.push_next(before=now), limit=1)))
        unbounded = queries.push_next()
        self.assertEqual(now, queries.find(collection, unbounded,
                                           limit=1)[0]['pa'])


class NoHintNoInTest(testtools.TestCase):
    """The hot queries keep the plain form the test server plans well."""

    def test_no_in_over_states_no_null_equality(self):
        scope = 'p/q'
        for query in (queries.in_state(scope, queries.READY, 5, -1),
                      queries.ended(scope, queries.WAITING, 1),
                      queries.ending_later(scope, queries.CLAIMED, 1),
                      queries.of_claim(scope, 'c')):
            text = repr(query.filter)
            self.assertNotIn('$in', text)
            self.assertNotIn('None', text)
