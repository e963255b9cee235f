"""Each store's history reader and replayer, for ``zaqar-delay-manage
history`` and ``replay`` (doc/source/history.rst)."""

import importlib

from zaqar_delay.storage import export

# The stores that keep history, by message store name.
_MODULES = {'redis.delay': 'zaqar_delay.storage.redis.history',
            'swift.delay': 'zaqar_delay.storage.swift.history'}


class HistoryError(Exception):
    """Raised when the store keeps no history."""


def load(config_files):
    """(backend history module, data driver) of the config files'
    message store; HistoryError if it keeps no history."""
    try:
        name, _, data = export.load(config_files)
    except export.ExportError as exc:
        raise HistoryError(str(exc)) from None
    if name not in _MODULES:
        raise HistoryError('the %r message store keeps no history (%s do)'
                           % (name, ', '.join(sorted(_MODULES))))
    return importlib.import_module(_MODULES[name]), data


def events(config_files, queue, project, since=None, until=None):
    """The queue's events in [since, until], in time order."""
    module, data = load(config_files)
    return module.events(data, queue, project, since, until)


def replayer(config_files):
    """A Replayer of the config files' store."""
    module, data = load(config_files)
    return module.Replayer(data)
