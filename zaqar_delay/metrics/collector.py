"""The scrape-time collector of the delay stores' metrics.

A prometheus_client custom collector: each scrape reads every store
(``stores.Stores``) through its backend's reader
(``storage.base.MetricsReader``), a bounded index read per queue,
and yields gauges; nothing is kept between scrapes but the queue names
already split. Per-queue series are given for at most ``[delay_metrics]
max_queues`` queues per store, those of ``[delay_metrics] queues`` (an
allow-list of ``project/queue`` patterns) if it is set.
"""

import fnmatch
import time

from oslo_log import log as logging
from prometheus_client import core
from prometheus_client import registry

from zaqar_delay import counts
from zaqar_delay import delay
from zaqar_delay import opts
from zaqar_delay.metrics import families as fam

LOG = logging.getLogger(__name__)


def allowed(patterns, project, queue):
    """Whether ``project/queue`` matches one of the fnmatch patterns
    (every queue does when there are none)."""
    name = '%s/%s' % (project or '', queue)
    return not patterns or any(fnmatch.fnmatchcase(name, pattern)
                               for pattern in patterns)


class StoreCollector(registry.Collector):
    """Gauges of the stores ``stores()`` gives, read when scraped."""

    def __init__(self, stores, max_queues, patterns=(), clock=time.time):
        self.stores = stores
        self.max_queues = max_queues
        self.patterns = list(patterns)
        self.clock = clock
        self._splits = {}   # per pool: scope -> (project, queue)

    @classmethod
    def from_conf(cls, stores, conf):
        settings = conf[opts.METRICS_GROUP]
        return cls(stores, settings.max_queues, settings.queues)

    def describe(self):
        # Do not scrape the stores when the collector is registered.
        return []

    def collect(self):
        queue = ['pool', 'project', 'queue']
        messages = core.GaugeMetricFamily(
            fam.QUEUE_MESSAGES, 'Messages of a queue by state: delayed '
            '(not due), ready (due, not claimed: consumer lag), claimed.',
            labels=queue + ['state'])
        oldest = core.GaugeMetricFamily(
            fam.QUEUE_OLDEST_DUE_AGE, 'Seconds since the oldest ready '
            'message of the queue became claimable (0: none ready).',
            labels=queue)
        next_due = core.GaugeMetricFamily(
            fam.QUEUE_NEXT_DUE, 'When the next delayed message of the '
            'queue comes due (unix time; absent: none delayed).',
            labels=queue)
        queues = core.GaugeMetricFamily(
            fam.QUEUES, 'Queues holding messages, and how many of them '
            'have per-queue series (exported) under the cap and '
            'allow-list.', labels=['pool', 'which'])
        pending = core.GaugeMetricFamily(
            fam.PUSHES_PENDING, 'Pushes to subscribers not done yet '
            '(due or not).', labels=['pool'])
        failed = core.GaugeMetricFamily(
            fam.PUSHES_FAILED_KEPT, 'Failed pushes kept for '
            'zaqar-delay-manage pushes failed|resend.', labels=['pool'])
        up = core.GaugeMetricFamily(
            fam.STORE_UP, '1 if the last scrape read the store, else 0.',
            labels=['pool'])
        took = core.GaugeMetricFamily(
            fam.STORE_SCRAPE, 'Seconds the last scrape spent reading the '
            'store.', labels=['pool'])
        counted = _CountedFamilies()
        try:
            stores = self.stores()
        except Exception:
            LOG.exception('metrics: listing the stores failed')
            stores = []
        now = delay.floor_ms(self.clock())
        for store in stores:
            start = time.monotonic()
            try:
                found, stats, totals = self._read(store, now)
            except Exception:
                LOG.exception('metrics: reading pool %r failed', store.pool)
                up.add_metric([store.pool], 0)
                continue
            up.add_metric([store.pool], 1)
            took.add_metric([store.pool], time.monotonic() - start)
            queues.add_metric([store.pool, 'holding'], found)
            queues.add_metric([store.pool, 'exported'], len(stats))
            pending.add_metric([store.pool], totals.pending)
            failed.add_metric([store.pool], totals.failed)
            if totals.counted is not None:
                counted.add(store.pool, totals.counted)
            for (project, name), row in sorted(
                    stats.items(), key=lambda item: (item[0][0] or '',
                                                     item[0][1])):
                labels = [store.pool, project or '', name]
                for state in (fam.DELAYED, fam.READY, fam.CLAIMED):
                    messages.add_metric(labels + [state],
                                        getattr(row, state))
                since = row.available_since
                oldest.add_metric(labels, max(now - since, 0)
                                  if since is not None and row.ready else 0)
                if row.next_due is not None:
                    next_due.add_metric(labels, row.next_due)
        return [messages, oldest, next_due, queues, pending, failed, up,
                took] + counted.families()

    def _read(self, store, now):
        """(queues holding messages, {(project, queue): QueueStats} of
        those exported, StoreStats)."""
        splits = self._splits.setdefault(store.pool, {})
        found, named = 0, []
        for project, name in store.reader.queues(store.control, splits,
                                                 store.pool):
            found += 1
            if (len(named) < self.max_queues and
                    allowed(self.patterns, project, name)):
                named.append((project, name))
        stats = store.reader.read(named, now) if named else {}
        return found, stats, store.reader.totals()


class _CountedFamilies:
    """The families of the counters the stores keep (``counts.Counted``),
    by pool."""

    def __init__(self):
        self.lateness = core.HistogramMetricFamily(
            fam.CLAIM_LATENESS, 'Seconds from a delayed message\'s due '
            'time to the claim that took it (to the millisecond).',
            labels=['pool'])
        self.early = core.CounterMetricFamily(
            fam.EARLY_CLAIMS, 'Claims of messages not due yet: must stay '
            '0.', labels=['pool'])
        self.released = core.CounterMetricFamily(
            fam.RETRIES_BACKOFF, 'Messages given back with a retry backoff '
            '(_retry_backoff), via a claim release or their claim\'s '
            'expiry.', labels=['pool', 'via'])
        self.dead = core.CounterMetricFamily(
            fam.DEAD_LETTERED, 'Messages moved to a dead-letter queue.',
            labels=['pool'])

    def add(self, pool, counted):
        buckets, total = [], 0
        for bound in counts.CLAIM_BUCKETS_MS:
            total += counted.buckets[bound]
            buckets.append((str(bound / 1000), total))
        buckets.append(('+Inf', total + counted.buckets[None]))
        self.lateness.add_metric([pool], buckets, counted.lateness)
        self.early.add_metric([pool], counted.early)
        self.released.add_metric([pool, fam.RELEASE], counted.released)
        self.released.add_metric([pool, fam.CLAIM_EXPIRY], counted.expired)
        self.dead.add_metric([pool], counted.dead_lettered)

    def families(self):
        return [self.lateness, self.early, self.released, self.dead]
