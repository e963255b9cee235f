"""A queue stage of every delay driver: queue metadata it would not
honour is refused with a 400 and a clear message, not stored.

Zaqar loads it from each delay driver's ``<driver module>.queue.stages``
entry point (as the stats stage), in front of the queue controller: on a
queue PUT (create) and on a metadata PATCH. Pooled deployments put
Zaqar's pool catalog in front of the queue controller instead, whose
stages come from ``zaqar.storage.pooling.queue.stages``: there
``PooledQueueMetadataCheck`` runs the same check with the driver of the
pool that holds the queue, when that pool is a delay store. Metadata
stored unchecked (written before, or by other means) is read as absent
where a driver refuses a value (``retry.of_queue``). A refusal
reaches Zaqar through ``boundary``.
"""

import math

from zaqar.conf import transport

from zaqar_delay import deadletter
from zaqar_delay import dedup
from zaqar_delay import delay
from zaqar_delay import errors
from zaqar_delay.history import events as history
from zaqar_delay import opts
from zaqar_delay import retry
from zaqar_delay.schedules import definition
from zaqar_delay.storage import boundary
from zaqar_delay.storage import common
from zaqar_delay.storage import upstream


def check(metadata, max_delay, max_ttl, max_history_ttl=None):
    """Raise ``errors.Refused`` for metadata the delay drivers refuse."""
    metadata = metadata or {}
    delay.check_queue_default(metadata, max_delay)
    deadletter.check(metadata)
    if retry.KEY in metadata:
        retry.check(metadata[retry.KEY], max_delay)
    dedup.check(metadata, max_ttl)
    definition.check(metadata, max_ttl)
    if max_history_ttl is not None:
        history.check(metadata, max_history_ttl)


class QueueMetadataCheck:
    """The stage: ``create`` and ``set_metadata`` check, then pass.

    A refused create or ``set_metadata`` raises what Zaqar answers with
    a 400 (``boundary``); ``refuse`` raises ``QueueMetadataRefused``.

    Metadata with ``_schedules`` puts the queue in the driver's schedule
    index, to be looked at a second later (once the metadata is
    written), recording when it was set: a schedule added or whose
    timing changed starts at its first tick at or after then; a
    queue whose schedules are removed leaves the index at its next
    look.
    """

    def __init__(self, driver, control_driver):
        self.max_delay = driver.max_delay
        self.max_ttl = driver.conf[transport.GROUP_NAME].max_message_ttl
        self.driver = driver
        self.max_history_ttl = driver.conf[opts.GROUP].max_history_ttl

    def _index(self, name, metadata, project):
        if definition.KEY in (metadata or {}) and getattr(
                self.driver, 'schedule_class', None) is not None:
            now = self.driver.clock()
            self.driver.schedule_store.touch(
                name, project, int(now) + 1, math.ceil(now))

    def refuse(self, name, metadata=None, project=None):
        """``create`` raising ``QueueMetadataRefused``."""
        try:
            check(metadata, self.max_delay, self.max_ttl,
                  self.max_history_ttl)
        except errors.Refused as exc:
            raise errors.QueueMetadataRefused(name, str(exc)) from None
        self._index(name, metadata, project)

    def create(self, name, metadata=None, project=None):
        try:
            self.refuse(name, metadata, project)
        except errors.QueueMetadataRefused as exc:
            raise boundary.refused_create(exc, self.driver.conf) from exc

    @boundary.refusing
    def set_metadata(self, name, metadata, project=None):
        check(metadata, self.max_delay, self.max_ttl, self.max_history_ttl)
        self._index(name, metadata, project)


class PooledQueueMetadataCheck:
    """``QueueMetadataCheck`` in front of Zaqar's pool catalog.

    It registers the queue in the catalog first, as the catalog's own
    create and ``set_metadata`` do next with the same flavor (a no-op
    when the queue is registered), to learn its pool; when the pool's
    driver is a delay driver, that driver's check and schedule index
    apply, as without pools. A queue in another kind of pool passes
    unchecked. A refused create of a queue that does not exist takes
    its registration back.
    """

    def __init__(self, pooling_driver, control_driver):
        self.catalog = upstream.pool_catalog(pooling_driver)
        self.conf = pooling_driver.conf
        self._checks = {}       # a pool's delay driver -> its check

    def _check(self, name, metadata, project):
        flavor = metadata.get('_flavor') if isinstance(metadata,
                                                       dict) else None
        self.catalog.register(name, project=project, flavor=flavor)
        pool = self.catalog.lookup(name, project)
        store = getattr(pool, '_storage', None)
        if not isinstance(store, common.DelaySettings):
            return None
        if store not in self._checks:
            self._checks[store] = QueueMetadataCheck(store, None)
        return self._checks[store]

    def create(self, name, metadata=None, project=None):
        check = self._check(name, metadata, project)
        if check is None:
            return
        try:
            check.refuse(name, metadata, project)
        except errors.QueueMetadataRefused as exc:
            if not self.catalog.control.queue_controller.exists(
                    name, project=project):
                self.catalog.deregister(name, project)
            raise boundary.refused_create(exc, self.conf) from exc

    def set_metadata(self, name, metadata, project=None):
        check = self._check(name, metadata, project)
        if check is not None:
            check.set_metadata(name, metadata, project)
