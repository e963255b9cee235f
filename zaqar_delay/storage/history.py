"""Each store's history reader and replayer, for ``zaqar-delay-manage
history``, ``replay`` and ``export --history`` (doc/source/history.rst).

The store of a queue is found through ``catalog``: in a pooled
deployment, the pool that holds it.
"""

import importlib

from zaqar.storage import pipeline

from zaqar_delay import errors
from zaqar_delay.history import events as history_events
from zaqar_delay.history import replay as history_replay
from zaqar_delay.storage import catalog

# The client uuid of the messages replay posts.
REPLAY_CLIENT = '00000000-0000-4000-8000-000000000000'

# The stores that keep history, by message store name.
_MODULES = {'redis.delay': 'zaqar_delay.storage.redis.history',
            'swift.delay': 'zaqar_delay.storage.swift.history',
            'mongodb.delay': 'zaqar_delay.storage.mongodb.history',
            'mongodb.fifo.delay': 'zaqar_delay.storage.mongodb.history'}


def stores(config_files):
    """The deployment's ``catalog.Stores``."""
    return catalog.Stores(config_files)


def reader(found, queue, project):
    """(backend history module, data driver) of the store holding the
    queue, out of ``found`` (``stores``); errors.HistoryError if it keeps no
    history or no pool holds the queue."""
    try:
        name, data = found.store(queue, project)
    except errors.QueueNotPooled as exc:
        raise errors.HistoryError(str(exc)) from None
    if name not in _MODULES:
        raise errors.HistoryError(
            'the %r message store keeps no history (%s do)'
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
        except errors.QueueNotPooled:
            same = False
        if not same:
            raise errors.HistoryError(
                'queue %r is not in the pool of %r: replay to a queue of '
                'the same pool' % (target, queue))
    return module.Replayer(data)


class Replayer:
    """Replays a queue's messages with a data driver; each store's
    subclass reads the history (``read``) and posts one message with its
    ``replayed`` record (``post``)."""

    def __init__(self, driver):
        self.driver = driver
        self.messages = driver.message_controller
        # Queues made through the store's stages, as Zaqar's API makes
        # them: registered in the store's own index of queues too.
        self.queues = pipeline.DataDriver(
            driver.conf, driver, driver.control_driver).queue_controller

    def read(self, queue, project, since):
        """The queue's events from ``since`` on, in time order."""
        raise NotImplementedError

    def begin(self, queue, project):
        """Called once before the first post of a replay."""

    def post(self, queue, project, posted, target, delay, client_uuid):
        """Post ``posted`` (a posted event) to ``target`` with the
        replay's dedup digest, record a ``replayed`` event in ``queue``'s
        history, and return its ``replay.Replayed``."""
        raise NotImplementedError

    def replay(self, queue, project, since, until, target, delay=None,
               dry_run=False, client_uuid=REPLAY_CLIENT):
        """Post the messages posted to ``queue`` in [since, until] again,
        to ``target`` (made if missing), once each; yield a
        ``replay.Replayed`` for each, those posted now first."""
        found = self.read(queue, project, since)
        todo, done = history_replay.plan(found, target)
        if todo and not dry_run:
            self.begin(queue, project)
            # As a post to Zaqar's v2 API does, make a missing queue.
            self.queues.create(target, project=project)
        for posted in todo:
            if posted.at > until:
                continue
            if dry_run:
                yield history_replay.Replayed(posted, None, False)
                continue
            yield self.post(queue, project, posted, target, delay,
                            client_uuid)
        for posted in found:
            if posted.kind == history_events.POSTED \
                    and posted.message_id in done and posted.at <= until:
                yield history_replay.Replayed(posted,
                                              done[posted.message_id], True)
