"""Switch a live MongoDB store between ``mongodb`` and ``mongodb.delay``.

``mongodb`` -> ``mongodb.delay``: the three delay indexes
(``queries.INDEXES``) are created, then every message document gets
``s`` and ``a`` from its own ``d`` and claim, one batch (``_id``
order) at a time; each document is updated by one
server-side pipeline update, so a claim made meanwhile is not lost. Run
it after every zaqar-server uses ``mongodb.delay``; it is idempotent.

``mongodb.delay`` -> ``mongodb``: the three are dropped (``s``, ``a``
and ``pa`` stay and are ignored by ``mongodb``). Run it after every
zaqar-server uses ``mongodb``.
"""

from oslo_utils import timeutils
import pymongo
from zaqar.conf import drivers_message_store_mongodb as mongodb_opts

from zaqar_delay import delay
from zaqar_delay.storage import base
from zaqar_delay.storage import common
from zaqar_delay.storage.mongodb import queries
from zaqar_delay.storage.mongodb import updates
from zaqar_delay.storage.mongodb import upstream

NAMES = tuple(queries.INDEXES)


def collections(client, database, partitions):
    """The message collections of a store, one per partition."""
    return [client[database + upstream.COL_SUFFIX + str(p)].messages
            for p in range(partitions)]


def _state(doc, now):
    claim = doc.get('c') or {}
    if claim.get('id') is not None and claim.get('e', 0) > now:
        return queries.CLAIMED
    if doc.get('d', 0) > now:
        return queries.WAITING
    return queries.READY


def reindex(collection, batch=1000, dry_run=False):
    """Index one collection; yield the Counts of each batch as done."""
    if not dry_run:
        for name, fields in queries.INDEXES.items():
            collection.create_index(fields, name=name, background=True)
    after = None
    while True:
        query = {} if after is None else {'_id': {'$gt': after}}
        docs = list(collection.find(query, projection={'c': 1, 'd': 1},
                                    sort=[('_id', 1)], limit=batch))
        if not docs:
            return
        after = docs[-1]['_id']
        # Zaqar's clock to the millisecond, as the drivers judge by.
        now = delay.floor_ms(timeutils.utcnow_ts(microsecond=True))
        states = [_state(doc, now) for doc in docs]
        if not dry_run:
            # A document still in a post (``tx`` set by upstream's
            # two-phase post, or being posted by mongodb.delay's) gets no
            # state: only finished posts are claimable.
            collection.update_many({'_id': {'$in': [d['_id'] for d in docs]},
                                    'tx': None,
                                    's': {'$ne': queries.POSTING}},
                                   updates.state_update(now))
        yield common.Counts(states.count(queries.READY),
                            states.count(queries.WAITING),
                            states.count(queries.CLAIMED), 0)


def drop_index(collection, dry_run=False):
    """Drop the delay indexes of one collection; return their names."""
    present = [name for name in collection.index_information()
               if name in NAMES]
    if not dry_run:
        for name in present:
            collection.drop_index(name)
    return present


class Migrate(base.Migrate):
    """The message collections of a MongoDB store, one per partition."""

    upstream = 'mongodb'

    @classmethod
    def connect(cls, config_files, uri=None, database=None,
                partitions=None):
        settings = None if uri else cls.settings(config_files, mongodb_opts)
        uri = uri or settings.uri
        database = database or (settings.database if settings else 'zaqar')
        partitions = partitions or (settings.partitions if settings else 2)
        client = pymongo.MongoClient(common.plain_uri(uri, 'mongodb'))
        return cls(collections(client, database, partitions))

    def places(self):
        return [(coll.full_name, coll) for coll in self.store]

    def reindex(self, place, batch=1000, dry_run=False):
        return reindex(place, batch, dry_run)

    def drop_index(self, place, dry_run=False):
        return 'indexes %s' % (', '.join(drop_index(place, dry_run))
                               or 'none')
