"""Find the store that holds a queue, pooled or not.

Without pooling, every queue is in the store ``[drivers] message_store``
names; with pooling, Zaqar's catalog names the pool, whose URI and
options make its data driver as Zaqar makes it (doc/source/history.rst).
``pool_queues`` reads the queues of one pool from the management
store's catalogue as upstream stores it (mongodb, sqlalchemy; none on
redis), one request, O(queues of the deployment): doc/source/metrics.rst.
Upstream's private ``_normalize`` of each is fenced by
``storage.upstream.private`` and checked against
``zaqar_delay.version.CHECKED_ZAQAR`` (SQL: tests/unit/storage/
test_catalog.py; MongoDB: tests/functional/metrics/test_scrape.py).
"""

import sqlalchemy as sa
from zaqar.storage import errors
from zaqar.storage.sqlalchemy import tables
from zaqar.storage import utils as storage_utils

from zaqar_delay import errors as delay_errors
from zaqar_delay.storage import export
from zaqar_delay.storage import upstream

# An entry of each catalogue as {'queue', 'project', 'pool'}.
_MONGODB = upstream.private('zaqar.storage.mongodb.catalogue', '_normalize')
_SQL = upstream.private('zaqar.storage.sqlalchemy.catalogue', '_normalize')


class Stores:
    """The data drivers of a deployment, by queue.

    Reads the config files once; a pool's driver is made on first use
    and kept. Looking a queue up costs one catalog read and, for a pool
    not seen yet, one pool read, when pooled; nothing otherwise.
    """

    def __init__(self, config_files):
        self.conf, self.cache, self.control = export.configure(config_files)
        self.pooled = bool(self.conf.pooling)
        self._drivers = {}      # pool name (None: unpooled) -> (name, data)

    def queues(self, project):
        """Every queue name of a project, in name order."""
        return export.queues(self.control, project)

    def pool(self, queue, project):
        """The name of the pool holding the queue (None: unpooled)."""
        if not self.pooled:
            return None
        try:
            found = self.control.catalogue_controller.get(project, queue)
        except errors.QueueNotMapped:
            raise delay_errors.QueueNotPooled(
                'no pool holds queue %r of project %r' % (queue, project)
            ) from None
        return found['pool']

    def store(self, queue, project):
        """(message store name, data driver) of the queue's store."""
        name = self.pool(queue, project)
        if name not in self._drivers:
            self._drivers[name] = self._load(name)
        return self._drivers[name]

    def _load(self, pool):
        if pool is None:
            return (self.conf.drivers.message_store,
                    storage_utils.load_storage_driver(
                        self.conf, self.cache, control_driver=self.control))
        found = self.control.pools_controller.get(pool, detailed=True)
        conf = storage_utils.dynamic_conf(found['uri'],
                                          dict(found['options']),
                                          conf=self.conf)
        return (conf.drivers.message_store,
                storage_utils.load_storage_driver(
                    conf, self.cache, control_driver=self.control))


def _mongodb(control, pool):
    collection = control.database.catalogue
    return (_MONGODB(entry) for entry in collection.find(
        {'s': pool}, projection={'_id': 0}))


def _sqlalchemy(control, pool):
    return (_SQL(row) for row in control.fetch_all(
        sa.sql.select(tables.Catalogue).where(
            tables.Catalogue.c.pool == pool)))


_READERS = {'mongodb': _mongodb, 'sqlalchemy': _sqlalchemy}


def pool_queues(control, pool):
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
