"""The delay stores a metrics collector reads: the message store of
zaqar.conf, or each pool of a pooled deployment (read again at every
scrape, so that a pool added later is scraped too)."""

import collections

from oslo_log import log as logging
from zaqar import bootstrap
from zaqar.storage import utils as storage_utils

LOG = logging.getLogger(__name__)

#: A store to scrape: its pool name ('' without pooling), its data and
#: control drivers and its backend's reader (``base.MetricsReader``).
Store = collections.namedtuple('Store', 'pool data control reader')


def reader(data):
    """The metrics reader of a data driver (its ``metrics_class``), or
    None if it names none (not one of zaqar-delay's)."""
    found = getattr(data, 'metrics_class', None)
    return None if found is None else found(data)


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
