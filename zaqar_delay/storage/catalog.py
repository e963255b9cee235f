"""Find the store that holds a queue, pooled or not.

Without pooling, every queue is in the store the config files name
(``[drivers] message_store``). With pooling, Zaqar's catalog (the
management store's catalogue) says which pool holds each queue; that
pool's URI and options make its data driver, as Zaqar itself makes it.
Used by ``zaqar-delay-manage history``, ``replay`` and ``export
--history`` (doc/source/history.rst).
"""

from zaqar.storage import errors
from zaqar.storage import utils as storage_utils

from zaqar_delay import errors as delay_errors
from zaqar_delay.storage import export


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
