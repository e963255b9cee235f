"""Metrics scraped over HTTP on each store (``tests/common/metrics.py``)."""

import testtools

from tests.common import metrics


class RedisMetricsTest(metrics.MetricsScrapes, testtools.TestCase):
    pass


class MongoMetricsTest(metrics.MetricsScrapes, testtools.TestCase):
    store = 'mongodb.delay'


class SwiftMetricsTest(metrics.MetricsScrapes, testtools.TestCase):
    store = 'swift.delay'
    shared = True
    counts_claims = False


class MongoPooledMetricsTest(metrics.MetricsScrapes, testtools.TestCase):
    store = 'mongodb.delay'
    pooled = True


class RedisPooledMetricsTest(metrics.MetricsScrapes, testtools.TestCase):
    # A redis.delay pool has no msgset_index: its queues come from the
    # catalog (zaqar_delay.storage.catalog).
    pooled = True
