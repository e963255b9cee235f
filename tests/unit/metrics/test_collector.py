"""StoreCollector over a reader kept in memory: caps, allow-list,
labels and a store that fails; exposition parsed back."""

import types

from prometheus_client import exposition
from prometheus_client import parser
from prometheus_client import registry
import testtools

from zaqar_delay import counts
from zaqar_delay.metrics import collector
from zaqar_delay.metrics import families
from zaqar_delay.metrics import stores
from zaqar_delay.storage import base

NOW = 1000000


class Reader(base.MetricsReader):
    """A backend reader over {(project, queue): QueueStats}."""

    def __init__(self, queues, fail=False, counted=None):
        super().__init__(None)
        self.queues_ = queues
        self.fail = fail
        self.counted = counted
        self.read_named = None

    def queues(self, control, cache, pool=''):
        if self.fail:
            raise ConnectionError('store down')
        return iter(self.queues_)

    def read(self, named, now):
        self.read_named = list(named)
        return {name: self.queues_[name] for name in named}

    def totals(self):
        return base.StoreStats(pending=5, failed=2, counted=self.counted)


def stats(ready=0, delayed=0, claimed=0, since=None, next_due=None):
    return base.QueueStats(delayed, ready, claimed, since, next_due)


def scrape(collect):
    reg = registry.CollectorRegistry(auto_describe=False)
    reg.register(collect)
    text = exposition.generate_latest(reg).decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in parser.text_string_to_metric_families(text)
            for s in family.samples}


class CollectorTest(testtools.TestCase):

    def make(self, readers, max_queues=1000, patterns=()):
        found = [stores.Store(pool, None, None, reader)
                 for pool, reader in readers]
        return collector.StoreCollector(lambda: found, max_queues, patterns,
                                        clock=lambda: NOW)

    def test_states_age_and_next_due_with_labels(self):
        reader = Reader({
            ('tenant.a', 'orders.eu'): stats(ready=3, delayed=2, claimed=1,
                                             since=NOW - 40,
                                             next_due=NOW + 60),
            (None, 'plain'): stats(delayed=1, next_due=NOW + 5)})
        got = scrape(self.make([('', reader)]))
        labels = (('pool', ''), ('project', 'tenant.a'),
                  ('queue', 'orders.eu'))
        for state, value in (('ready', 3), ('delayed', 2), ('claimed', 1)):
            self.assertEqual(value, got[families.QUEUE_MESSAGES, tuple(
                sorted(labels + (('state', state),)))])
        self.assertEqual(40, got[families.QUEUE_OLDEST_DUE_AGE, labels])
        self.assertEqual(NOW + 60, got[families.QUEUE_NEXT_DUE, labels])
        plain = (('pool', ''), ('project', ''), ('queue', 'plain'))
        # Nothing ready: no age, whatever ``since`` says.
        self.assertEqual(0, got[families.QUEUE_OLDEST_DUE_AGE, plain])
        self.assertEqual(5, got[families.PUSHES_PENDING, (('pool', ''),)])
        self.assertEqual(2, got[families.PUSHES_FAILED_KEPT,
                                (('pool', ''),)])
        self.assertEqual(1, got[families.STORE_UP, (('pool', ''),)])

    def test_cap_and_allow_list_bound_the_queues_read(self):
        queues = {('p%d' % (n % 2), 'q%d' % n): stats(ready=n)
                  for n in range(10)}
        reader = Reader(queues)
        got = scrape(self.make([('', reader)], max_queues=3,
                               patterns=['p1/*']))
        self.assertEqual([('p1', 'q1'), ('p1', 'q3'), ('p1', 'q5')],
                         reader.read_named)
        self.assertEqual(10, got[families.QUEUES, (('pool', ''),
                                                   ('which', 'holding'))])
        self.assertEqual(3, got[families.QUEUES, (('pool', ''),
                                                  ('which', 'exported'))])
        series = {key for key in got if key[0] == families.QUEUE_MESSAGES}
        self.assertEqual(9, len(series))

    def test_a_store_that_fails_is_down_and_the_others_scraped(self):
        good = Reader({('p', 'q'): stats(ready=1)})
        got = scrape(self.make([('a', Reader({}, fail=True)),
                                ('b', good)]))
        self.assertEqual(0, got[families.STORE_UP, (('pool', 'a'),)])
        self.assertEqual(1, got[families.STORE_UP, (('pool', 'b'),)])
        self.assertNotIn((families.PUSHES_PENDING, (('pool', 'a'),)), got)

    def test_counters_a_store_keeps_as_a_histogram_and_counters(self):
        counted = counts.Counted.of_fields({
            'ms:le:5': '2', 'ms:le:5000': 3, 'ms:le:inf': 1,
            'ms:sum': 4000, 'ms:count': 6,
            'released_backoff': 7, 'dead_lettered': 8,
            'expired_backoff': 9})
        got = scrape(self.make([('a', Reader({}, counted=counted)),
                                ('b', Reader({}))]))
        pool = (('pool', 'a'),)
        lateness = families.CLAIM_LATENESS

        def bucket(le):
            return got[lateness + '_bucket', (('le', le),) + pool]

        # Cumulative, from the store's per-bucket counts.
        self.assertEqual([2, 2, 2, 5, 5, 6], [bucket(le) for le in (
            '0.005', '0.01', '1.0', '5.0', '3600.0', '+Inf')])
        self.assertEqual(6, got[lateness + '_count', pool])
        self.assertEqual(4.0, got[lateness + '_sum', pool])
        self.assertEqual(0, got[families.EARLY_CLAIMS + '_total', pool])
        retries = families.RETRIES_BACKOFF + '_total'
        self.assertEqual(7, got[retries, pool + (('via', 'release'),)])
        self.assertEqual(9, got[retries, pool + (('via', 'claim_expiry'),)])
        self.assertEqual(8, got[families.DEAD_LETTERED + '_total', pool])
        # A store that keeps no counters (swift.delay) has no series.
        self.assertNotIn((families.EARLY_CLAIMS + '_total',
                          (('pool', 'b'),)), got)
        exposed = {name for name, _ in got}
        self.assertLessEqual(exposed, families.EXPOSED)

    def test_allowed_patterns(self):
        self.assertTrue(collector.allowed([], 'p', 'q'))
        self.assertTrue(collector.allowed(['/q*'], None, 'q.1'))
        self.assertFalse(collector.allowed(['p/*'], 'p.x', 'q'))

    def test_reader_of_a_driver_is_its_metrics_class(self):
        from zaqar_delay.storage.redis import driver
        from zaqar_delay.storage.redis import metrics
        data = driver.DataDriver.__new__(driver.DataDriver)
        found = stores.reader(data)
        self.assertIsInstance(found, metrics.Metrics)
        self.assertIs(data, found.driver)
        self.assertIsNone(stores.reader(types.SimpleNamespace()))
