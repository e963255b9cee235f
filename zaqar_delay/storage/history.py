"""Each store's history, for ``zaqar-delay-manage history``, ``replay``
and ``export --history`` (doc/source/history.rst).

The store of a queue is found through ``catalog``: in a pooled
deployment, the pool that holds it. Its data driver's
``history_class`` (``base.History``) reads and replays it.
"""

from zaqar_delay import errors
from zaqar_delay.storage import catalog
from zaqar_delay.storage import services


def stores(config_files):
    """The deployment's ``catalog.Stores``."""
    return catalog.Stores(config_files)


def reader(found, queue, project):
    """The ``base.History`` of the store holding the queue, out of
    ``found`` (``stores``); HistoryError if it keeps no history or no
    pool holds the queue."""
    try:
        name, data = found.store(queue, project)
    except errors.QueueNotPooled as exc:
        raise errors.HistoryError(str(exc)) from None
    kept = getattr(data, 'history_class', None)
    if kept is None:
        raise errors.HistoryError(
            'the %r message store keeps no history (%s do)'
            % (name, ', '.join(services.offering('history'))))
    return kept(data)


def replayer(config_files, queue, project, target=None):
    """The ``base.History`` of the store holding the queue, to replay
    with. In a pooled deployment ``target`` (default: the queue) must be
    held by the same pool."""
    found = stores(config_files)
    kept = reader(found, queue, project)
    if target not in (None, queue) and found.pooled:
        try:
            same = found.pool(target, project) == found.pool(queue, project)
        except errors.QueueNotPooled:
            same = False
        if not same:
            raise errors.HistoryError(
                'queue %r is not in the pool of %r: replay to a queue of '
                'the same pool' % (target, queue))
    return kept
