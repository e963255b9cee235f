"""The counters a delay store keeps for the metrics exporter. Pure.

The claim, release and dead-letter requests of ``redis.delay`` and
``mongodb.delay`` add to them in the store (the exporter runs in
another process); each store keeps them under the field names below
(``storage/redis/scripts/metrics.lua``, ``storage/mongodb/counters.py``)
and the exporter reads them as a ``Counted`` (doc/source/metrics.rst).
"""

import collections

# Upper bounds (whole seconds) of the claim lateness buckets: a store
# keeps one count per bound (``le:<bound>``, and ``le:inf`` above the
# last), not cumulative; the lateness is whole seconds (the stores'
# clocks).
CLAIM_BUCKETS = (0, 1, 2, 5, 10, 30, 60, 300, 900, 3600)


class Counted(collections.namedtuple(
        'Counted', 'buckets lateness claims early released dead_lettered '
        'expired')):
    """The counters a store's claim, release and dead-letter requests
    keep: claims of delayed messages per lateness bucket (bound -> count,
    not cumulative, None: above the last), the sum of their lateness (s)
    and their number, early claims, messages a release gave back with a
    retry backoff, messages moved to a dead-letter queue, and messages
    whose claim expired given back with a retry backoff (by the next
    claim or list of their queue)."""

    @classmethod
    def of_fields(cls, fields):
        """Counted from a store's ``{field: int}`` (missing: 0)."""
        def number(name):
            return int(fields.get(name) or 0)
        buckets = {bound: number('le:%d' % bound)
                   for bound in CLAIM_BUCKETS}
        buckets[None] = number('le:inf')
        return cls(buckets, number('sum'), number('count'),
                   number('early'), number('released_backoff'),
                   number('dead_lettered'), number('expired_backoff'))


def bucket_field(lateness):
    """The store field counting a claim ``lateness`` (whole s) late."""
    for bound in CLAIM_BUCKETS:
        if lateness <= bound:
            return 'le:%d' % bound
    return 'le:inf'
