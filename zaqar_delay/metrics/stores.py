"""The delay stores a metrics collector reads: the message store of
zaqar.conf, or each pool of a pooled deployment (read again at every
scrape, so that a pool added later is scraped too)."""

import collections
import importlib

from oslo_log import log as logging
from zaqar import bootstrap
from zaqar.storage import utils as storage_utils

LOG = logging.getLogger(__name__)

#: A store to scrape: its pool name ('' without pooling), its data and
#: control drivers and the reader module of its backend.
Store = collections.namedtuple('Store', 'pool data control reader')

_READERS = {'redis': 'zaqar_delay.metrics.redis',
            'mongodb': 'zaqar_delay.metrics.mongodb',
            'swift': 'zaqar_delay.metrics.swift'}


def reader(data):
    """The reader module of a data driver, or None if it is not one of
    zaqar-delay's (whose index sets the readers count)."""
    parts = type(data).__module__.split('.')
    if parts[:2] != ['zaqar_delay', 'storage'] or parts[2] not in _READERS:
        return None
    return importlib.import_module(_READERS[parts[2]])


class Stores:
    """``current()``: the Stores of a Zaqar conf, loaded once each."""

    def __init__(self, conf):
        self.conf = conf
        self._boot = bootstrap.Bootstrap(conf)
        self._pools = {}    # pool name -> (uri, Store)
        self._single = None

    def current(self):
        # Loaded at the first scrape: a store down when the process
        # starts fails that scrape only.
        self.cache, self.control = self._boot.cache, self._boot.control
        if not self.conf.pooling:
            if self._single is None:
                self._single = self._store('', self.conf)
            return [self._single] if self._single.reader else []
        found = []
        for pool in next(self.control.pools_controller.list(limit=0,
                                                            detailed=True)):
            name, uri = pool['name'], pool['uri']
            if self._pools.get(name, (None,))[0] != uri:
                conf = storage_utils.dynamic_conf(
                    uri, dict(pool.get('options') or {}), conf=self.conf)
                self._pools[name] = (uri, self._store(name, conf))
            store = self._pools[name][1]
            if store.reader is not None:
                found.append(store)
        return found

    def _store(self, pool, conf):
        data = storage_utils.load_storage_driver(
            conf, self.cache, control_driver=self.control)
        found = Store(pool, data, self.control, reader(data))
        if found.reader is None:
            LOG.warning('%s is not a zaqar-delay store: not scraped',
                        pool or conf.drivers.message_store)
        return found
