"""The queues a pooled deployment's catalog maps to one pool.

Zaqar's catalogue controller lists a project's queues, not a pool's;
the exporter needs a pool's (a ``redis.delay`` pool has no other list
of its queues: Zaqar writes ``msgset_index`` when it creates a queue in
an unpooled redis store only). So this module reads the catalogue of
the management store as upstream stores it, checked against the Zaqar
releases in ``zaqar_delay.version.CHECKED_ZAQAR`` (the SQL catalogue by
``tests/unit/metrics/test_catalog.py``, the MongoDB one by the pooled
redis.delay scrape of ``tests/functional/metrics/test_scrape.py``;
upstream's private ``_normalize`` of each is taken through
``storage.upstream.private``, which fails on import when it is gone):

==========  =========================================  ================
Store       Catalogue                                  Request
==========  =========================================  ================
mongodb     collection ``catalogue`` of the management  one query on
            database: ``{p_q: '<project>/<queue>',      ``s`` (no index:
            s: <pool>}``                                reads each entry)
sqlalchemy  table ``Catalogue`` (``pool project         one SELECT
            queue``)
redis       per-project sorted sets only                none: unknown
==========  =========================================  ================

Its cost grows with the queues of the deployment (one catalogue entry a
queue), never with their messages.
"""

import sqlalchemy as sa
from zaqar.storage.sqlalchemy import tables

from zaqar_delay.storage import upstream

# An entry of each catalogue as {'queue', 'project', 'pool'}.
_MONGODB = upstream.private('zaqar.storage.mongodb.catalogue', '_normalize')
_SQL = upstream.private('zaqar.storage.sqlalchemy.catalogue', '_normalize')


def _mongodb(control, pool):
    collection = control.database.catalogue
    return (_MONGODB(entry) for entry in collection.find(
        {'s': pool}, projection={'_id': 0}))


def _sqlalchemy(control, pool):
    return (_SQL(row) for row in control.fetch_all(
        sa.sql.select(tables.Catalogue).where(
            tables.Catalogue.c.pool == pool)))


_READERS = {'mongodb': _mongodb, 'sqlalchemy': _sqlalchemy}


def queues(control, pool):
    """(project, queue) of each queue the catalog of ``control`` (the
    management store's driver) maps to ``pool``: one request; None when
    that store cannot list a pool's queues (redis)."""
    parts = type(control).__module__.split('.')
    found = _READERS.get(parts[2] if parts[:2] == ['zaqar', 'storage']
                         and len(parts) > 2 else None)
    if found is None:
        return None
    return [(entry['project'] or None, entry['queue'])
            for entry in found(control, pool)]
