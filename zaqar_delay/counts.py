"""The counters a delay store keeps for the metrics exporter. Pure.

The claim, release and dead-letter requests of ``redis.delay`` and
``mongodb.delay`` add to them in the store (the exporter runs in
another process); each store keeps them under the field names below
(``storage/redis/scripts/metrics.lua``, ``storage/mongodb/counters.py``)
and the exporter reads them as a ``Counted`` (doc/source/metrics.rst).
"""

import collections
import math

# Upper bounds (milliseconds) of the claim lateness buckets: a store
# keeps one count per bound (``ms:le:<bound>``, and ``ms:le:inf`` above
# the last), not cumulative, with ``ms:sum`` (milliseconds) and
# ``ms:count``. Fields of whole-second buckets (``le:<s>``) that earlier
# versions kept are no longer read.
CLAIM_BUCKETS_MS = (5, 10, 25, 50, 100, 250, 500, 1000, 2000, 5000, 10000,
                    30000, 60000, 300000, 900000, 3600000)
SUM, COUNT, ABOVE = 'ms:sum', 'ms:count', 'ms:le:inf'


class Counted(collections.namedtuple(
        'Counted', 'buckets lateness claims early released dead_lettered '
        'expired')):
    """The counters a store's claim, release and dead-letter requests
    keep: claims of delayed messages per lateness bucket (bound in ms ->
    count, not cumulative, None: above the last), the sum of their
    lateness (seconds) and their number, early claims, messages a
    release gave back with a retry backoff, messages moved to a
    dead-letter queue, and messages whose claim expired given back with
    a retry backoff (by the next claim or list of their queue)."""

    @classmethod
    def of_fields(cls, fields):
        """Counted from a store's ``{field: int}`` (missing: 0)."""
        def number(name):
            return int(fields.get(name) or 0)
        buckets = {bound: number(bucket_name(bound))
                   for bound in CLAIM_BUCKETS_MS}
        buckets[None] = number(ABOVE)
        return cls(buckets, number(SUM) / 1000, number(COUNT),
                   number('early'), number('released_backoff'),
                   number('dead_lettered'), number('expired_backoff'))


def bucket_name(bound):
    """The store field of the bucket of ``bound`` (ms)."""
    return 'ms:le:%d' % bound


def bucket_field(lateness_ms):
    """The store field counting a claim ``lateness_ms`` late."""
    for bound in CLAIM_BUCKETS_MS:
        if lateness_ms <= bound:
            return bucket_name(bound)
    return ABOVE


def lateness_ms(now, due):
    """Whole milliseconds from ``due`` to ``now`` (unix seconds)."""
    return math.floor((now - due) * 1000 + 0.5)
