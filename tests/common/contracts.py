"""The contracts of ``zaqar_delay.storage.base``, one suite for every
backend.

Mixed in before a backend's ``DelayTestBase`` (``tests/fixtures``):
``Contracts`` checks that the driver ``zaqar.conf`` names (through this
package's entry points) names a class for each service, a subclass of
its contract with no method missing, then uses each service through its
contract's methods only. Zaqar's clock is frozen (``behaviour``); store
times are given explicitly. Deeper behaviour of each service has its
own suites (``pushes``, ``schedule_store``, ``metrics``...).
"""

import inspect
import uuid

from oslo_utils import timeutils

from tests.common import behaviour
from tests.common import pushes
from zaqar_delay.history import events
from zaqar_delay import pending
from zaqar_delay.storage import base
from zaqar_delay.storage import common
from zaqar_delay.storage import services

PROJECT = behaviour.PROJECT
LEASE = 30

#: The contract of each service a driver names (``<kind>_class``).
CONTRACTS = {'push': base.PushStore, 'schedule': base.ScheduleStore,
             'metrics': base.MetricsReader, 'history': base.History,
             'export': base.Export, 'migrate': base.Migrate,
             'probe': base.Probe}


class Contracts(pushes.WithPushes, behaviour.Helpers):
    """Every service of the data driver, through its contract."""

    def setUp(self):
        super().setUp()
        self.now = timeutils.utcnow_ts(True)

    def migrate(self):
        """The driver's Migrate of the store under test (a backend whose
        tests keep the store elsewhere than the config file says
        overrides it)."""
        return self.driver.migrate_class.connect(
            [self.conf_path(self.config_file)])

    def test_the_configured_driver_names_a_class_for_each_contract(self):
        name = self.conf.drivers.message_store
        self.assertIs(type(self.driver), services.driver_class(name))
        self.assertEqual(sorted(CONTRACTS), sorted(services.KINDS))
        for kind, contract in CONTRACTS.items():
            found = services.service(name, kind)
            self.assertTrue(issubclass(found, contract), kind)
            self.assertFalse(inspect.isabstract(found), kind)
        self.assertEqual(name.split('.')[0],
                         self.driver.migrate_class.upstream)

    def mine(self, found):
        """The entries of ``found`` (pushes, records, (queue, project,
        ...) tuples) of this test's queue: a store-wide answer may hold
        other tests' entries on a store they share."""
        return [one for one in found if self.queue == (
            one['queue'] if isinstance(one, dict)
            else getattr(one, 'queue', one[0]))]

    def test_push_store(self):
        store = self.driver.push_store
        (mid,) = self.post(5)
        self.assertLessEqual(round(store.next_due(), 3),
                             round(self.now + 5, 3))
        self.assertEqual([], self.mine(store.take(self.now + 4.999, 100,
                                                  LEASE)))
        (taken,) = self.mine(store.take(self.now + 5, 100, LEASE))
        self.assertEqual((PROJECT, self.queue, mid), taken[:3])
        self.assertEqual([], self.mine(store.take(self.now + 6, 100, LEASE)))
        hook = frozenset(['http://127.0.0.1:1/a'])
        store.delivered([(taken, hook)])
        (listed,) = self.mine(store.pending(100))
        self.assertEqual((mid, sorted(hook)),
                         (listed['message_id'], listed['delivered']))
        (again,) = self.mine(store.take(self.now + 5 + LEASE, 100, LEASE))
        self.assertEqual(hook, again.delivered)
        store.done([again])
        self.assertEqual([], self.mine(store.pending(100)))

    def test_push_store_keeps_failed_pushes(self):
        store = self.driver.push_store
        record = dict(zip(pending.FAILED_FIELDS, (
            'k-' + self.queue, 'm1', self.queue, PROJECT, 'http://h/x',
            503, 3, 'retries spent', int(self.now))))
        store.fail(record, 3600)
        self.assertEqual([record], self.mine(store.failed(100)))
        store.forget_failed([record])
        self.assertEqual([], self.mine(store.failed(100)))

    def test_schedule_store(self):
        store = self.driver.schedule_store
        t, me = int(self.now), (self.queue, PROJECT)
        store.touch(self.queue, PROJECT, t + 100, t + 99)
        self.assertEqual(t + 99, store.defined(*me))
        self.assertLessEqual(store.next_due(), t + 100)
        self.assertEqual([], self.mine(store.take(t + 99, 100, LEASE)))
        self.assertEqual([me], self.mine(store.take(t + 100, 100, LEASE)))
        self.assertEqual([], self.mine(store.take(t + 101, 100, LEASE)))
        self.assertEqual([True], store.advance_all([
            me + ({'s': t + 100}, t + 160, t + 100 + LEASE)]))
        self.assertEqual(t + 100, store.afters(*me)['s'])
        (afters,) = store.afters_of([me])
        self.assertEqual(t + 100, afters['s'])
        self.assertEqual(t + 160, store.next_tick(*me))
        self.assertEqual([me + (t + 160,)], self.mine(store.listed(100)))
        self.assertEqual([me], self.mine(store.take(t + 160, 100, LEASE)))
        self.assertTrue(store.advance(*me, {}, None, t + 160 + LEASE))
        self.assertIsNone(store.next_tick(*me))
        self.assertEqual([], self.mine(store.take(t + 10 ** 6, 100, LEASE)))

    def test_metrics_reader(self):
        reader = self.driver.metrics_class(self.driver)
        self.post(0, 30)
        name = (PROJECT, self.queue)
        self.assertIn(name, list(reader.queues(self.control, {})))
        found = reader.read([name], self.now)[name]
        self.assertEqual((1, 1, 0), (found.delayed, found.ready,
                                     found.claimed))
        self.assertEqual(round(self.now + 30, 3), round(found.next_due, 3))
        self.assertIsNotNone(found.available_since)
        totals = reader.totals()
        self.assertIsInstance(totals, base.StoreStats)
        self.assertGreaterEqual(totals.pending, 2)

    def test_history_and_its_replay(self):
        kept = self.driver.history_class(self.driver)
        self.queues.set_metadata(self.queue, {'_history_ttl': 3600},
                                 project=PROJECT)
        (mid,) = self.post(0)
        (posted,) = kept.events(self.queue, PROJECT)
        self.assertEqual((mid, events.POSTED), (posted.message_id,
                                                posted.kind))
        self.assertEqual([], kept.events(self.queue, PROJECT,
                                         since=self.now + 1))
        target = self.queue + '.again'
        (done,) = kept.replay(self.queue, PROJECT, self.now - 1,
                              self.now + 1, target)
        self.assertFalse(done.again)
        self.assertEqual(done.new_id, self.messages.get(
            target, done.new_id, PROJECT)['id'])
        # Once each: a second replay posts nothing.
        (again,) = kept.replay(self.queue, PROJECT, self.now - 1,
                               self.now + 1, target)
        self.assertEqual((done.new_id, True), (again.new_id, again.again))

    def test_export(self):
        exporter = self.driver.export_class(self.driver)
        first, second = self.post(0, 0)
        claim_id, _ = self.claim(limit=1)
        found = list(exporter.records(self.queue, PROJECT, 1))
        self.assertEqual([first, second], [rec['id'] for rec in found])
        self.assertEqual([claim_id, None],
                         [rec['claim_id'] for rec in found])
        made = exporter.claimed_at(self.queue, PROJECT, claim_id)
        self.assertLessEqual(abs(made - self.now), 1)
        self.assertIsNone(exporter.claimed_at(self.queue, PROJECT,
                                              uuid.uuid4().hex))

    def test_probe_pings_the_store_under_test(self):
        name = self.conf.drivers.message_store
        settings = self.driver.conf['drivers:message_store:%s'
                                    % name.split('.')[0]]
        probe = services.service(name, 'probe')
        self.assertIsNone(probe.ping(probe.where(settings), 5))

    def test_migrate_counts_a_queue_in_a_dry_run(self):
        self.post(0, 0, 30)
        self.claim(limit=1)
        listed = self.list_all(10, include_claimed=True)
        store = self.migrate()
        places = store.places()
        # A place that is one queue names it; otherwise every place.
        mine = [place for where, place in places if self.queue in where]
        done = common.Counts(0, 0, 0, 0)
        for place in mine or [place for _, place in places]:
            for counts in store.reindex(place, 1, dry_run=True):
                done = common.Counts(*map(sum, zip(done, counts)))
        self.assertEqual((1, 1, 1), (done.ready, done.waiting,
                                     done.claimed))
        for place in mine:
            self.assertIsInstance(store.drop_index(place, dry_run=True),
                                  str)
        # A dry run writes nothing.
        self.assertEqual(listed, self.list_all(10, include_claimed=True))
