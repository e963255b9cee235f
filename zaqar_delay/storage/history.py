"""Each store's history reader and replayer, for ``zaqar-delay-manage
history``, ``replay`` and ``export --history`` (doc/source/history.rst).

The store of a queue is found through ``catalog``: in a pooled
deployment, the pool that holds it.
"""

import importlib

from zaqar_delay.storage import catalog

# The stores that keep history, by message store name.
_MODULES = {'redis.delay': 'zaqar_delay.storage.redis.history',
            'swift.delay': 'zaqar_delay.storage.swift.history',
            'mongodb.delay': 'zaqar_delay.storage.mongodb.history',
            'mongodb.fifo.delay': 'zaqar_delay.storage.mongodb.history'}


class HistoryError(Exception):
    """Raised when the store keeps no history."""


def stores(config_files):
    """The deployment's ``catalog.Stores``."""
    return catalog.Stores(config_files)


def reader(found, queue, project):
    """(backend history module, data driver) of the store holding the
    queue, out of ``found`` (``stores``); HistoryError if it keeps no
    history or no pool holds the queue."""
    try:
        name, data = found.store(queue, project)
    except catalog.NotFound as exc:
        raise HistoryError(str(exc)) from None
    if name not in _MODULES:
        raise HistoryError('the %r message store keeps no history (%s do)'
                           % (name, ', '.join(sorted(_MODULES))))
    return importlib.import_module(_MODULES[name]), data


def events(config_files, queue, project, since=None, until=None,
           found=None):
    """The queue's events in [since, until], in time order (``found``:
    the ``stores`` to use, read from the config files if None)."""
    module, data = reader(found or stores(config_files), queue, project)
    return module.events(data, queue, project, since, until)


def replayer(config_files, queue, project, target=None):
    """A Replayer of the store holding the queue. In a pooled deployment
    ``target`` (default: the queue) must be held by the same pool."""
    found = stores(config_files)
    module, data = reader(found, queue, project)
    if target not in (None, queue) and found.pooled:
        try:
            same = found.pool(target, project) == found.pool(queue, project)
        except catalog.NotFound:
            same = False
        if not same:
            raise HistoryError('queue %r is not in the pool of %r: replay '
                               'to a queue of the same pool' % (target, queue))
    return module.Replayer(data)
