"""What a delay data driver gives beside upstream's controllers.

Each ``*.delay`` data driver keeps one class per service, found in its
backend's package by ``SERVICES`` (``pushes.Pushes`` for ``push_class``,
...), each a subclass of the contract here. Tools find a service
through the driver that ``zaqar.conf`` names (``services``);
``tests/common/contracts.py`` is the suite every backend runs
(doc/source/contributor.rst, "Adding a backend").
"""

import abc
import collections

from oslo_config import cfg
from oslo_utils import timeutils
from zaqar.storage import errors
from zaqar.storage import pipeline

from zaqar_delay.history import events as history_events
from zaqar_delay.history import replay as history_replay

# The client uuid of the messages replay posts.
REPLAY_CLIENT = '00000000-0000-4000-8000-000000000000'


class Service(abc.ABC):
    """A service over one data driver (``self.driver``)."""

    def __init__(self, driver):
        self.driver = driver    # read by upstream's retry decorators too


class PushStore(Service):
    """The pending and failed pushes to subscribers (``zaqar_delay.push``).

    A push (``pending.Push``) is due at its message's due time; a taker
    holds it for a lease, after which another may take it again.
    """

    @abc.abstractmethod
    def take(self, now, limit, lease):
        """Up to ``limit`` pushes due by ``now``, held until ``now +
        lease``, each with the subscribers recorded as delivered to."""

    @abc.abstractmethod
    def delivered(self, records):
        """Record, for each ``(push, subscribers)``, the subscribers that
        answered 2xx for a push not done yet."""

    @abc.abstractmethod
    def done(self, pushes, attempts=None):
        """Forget pushes that were made (or whose message is gone);
        record ``attempts`` (``pending.Attempt`` tuples, one per push) in
        the history of messages that keep one."""

    @abc.abstractmethod
    def next_due(self, before=None):
        """The earliest due time (or lease end) pending, or None; with
        ``before`` (UNIX seconds), None also when that time is not
        earlier than ``before``, so that a store whose server reads every
        key in a query's bounds reads only those due before it."""

    @abc.abstractmethod
    def pending(self, limit):
        """Up to ``limit`` pending pushes, earliest first, as
        ``pending.listed`` records."""

    @abc.abstractmethod
    def fail(self, record, retention):
        """Keep a failed push's record (``pending.FAILED_FIELDS``); drop
        those older than ``retention`` seconds."""

    @abc.abstractmethod
    def failed(self, limit):
        """Up to ``limit`` failed-push records, oldest first."""

    @abc.abstractmethod
    def forget_failed(self, records):
        """Delete failed-push records (as ``failed`` gave them)."""

    def watch(self, wake, stop):
        """Set the event ``wake`` when a push due before every pending one
        is added, until ``stop`` is set; a store without such a signal
        does nothing (its dispatchers look at ``next_due``)."""


class ScheduleStore(Service):
    """The schedule index (``zaqar_delay.schedules.ticker``): per queue
    with schedules, when to look at it next and each schedule's
    ``after`` (``ticks.key`` -> unix seconds; ``ticks.PASSED`` and
    ``ticks.DEFINED`` kept beside them)."""

    @abc.abstractmethod
    def touch(self, queue, project, at, defined):
        """Look at the queue's schedules at ``at``; they were set at
        ``defined``."""

    @abc.abstractmethod
    def defined(self, queue, project):
        """The ``defined`` of the latest ``touch``, or None."""

    @abc.abstractmethod
    def take(self, now, limit, lease):
        """Up to ``limit`` due (queue, project), earliest first, each held
        until ``now + lease``."""

    @abc.abstractmethod
    def afters(self, queue, project):
        """The queue's afters."""

    def afters_of(self, taken):
        """``afters`` of each (queue, project) of ``taken``."""
        return [self.afters(queue, project) for queue, project in taken]

    @abc.abstractmethod
    def advance(self, queue, project, afters, next_look, held):
        """Move each schedule's after forward to ``afters`` (never back;
        others are forgotten); look again at ``next_look`` (None: forget
        the queue) if the queue is still held until ``held``. True if
        the next look was written."""

    def advance_all(self, records):
        """``advance`` of each (queue, project, afters, next_look,
        held)."""
        return [self.advance(*record) for record in records]

    @abc.abstractmethod
    def next_due(self):
        """The earliest next look (or lease end), or None."""

    @abc.abstractmethod
    def next_tick(self, queue, project):
        """The queue's next look (or lease end), or None."""

    @abc.abstractmethod
    def listed(self, limit):
        """Up to ``limit`` (queue, project, next look), earliest first."""


class QueueStats(collections.namedtuple(
        'QueueStats', 'delayed ready claimed available_since next_due')):
    """One queue as a metrics reader sees it at ``now``.

    ``ready``: due and not claimed, promoted to the ready index or not;
    ``delayed``: not due yet; ``claimed``: held by a live claim.
    ``available_since``: the earliest time (unix s) a message counted
    in ``ready`` became claimable (None if none is ready); ``next_due``:
    the due time of the next delayed message (None if none).
    """


class StoreStats(collections.namedtuple(
        'StoreStats', 'pending failed counted')):
    """A store-wide reading: pending pushes, failed-push records kept,
    and the counters the store's requests keep (``counts.Counted``; None
    for a store that keeps none)."""

    def __new__(cls, pending, failed, counted=None):
        return super().__new__(cls, pending, failed, counted)


class MetricsReader(Service):
    """What a scrape reads of a store (doc/source/metrics.rst): a
    bounded index read per queue, whatever its backlog."""

    @abc.abstractmethod
    def queues(self, control, cache, pool=''):
        """(project, queue) of every queue of the store (of ``pool``'s,
        pooled; ``control``: the management store's driver). ``cache`` is
        the reader's to keep across scrapes."""

    @abc.abstractmethod
    def read(self, named, now):
        """{(project, queue): QueueStats} of ``named`` queues at ``now``
        (unix seconds, to the millisecond)."""

    @abc.abstractmethod
    def totals(self):
        """The store's StoreStats."""


class History(Service):
    """A store's kept message events (doc/source/history.rst), and their
    replay: each subclass reads the events and posts one message with
    its ``replayed`` record."""

    @property
    def messages(self):
        return self.driver.message_controller

    @property
    def queues(self):
        """A queue controller through the store's stages, as Zaqar's API
        has: a queue made here is in the store's own index too."""
        return pipeline.DataDriver(self.driver.conf, self.driver,
                                   self.driver.control_driver
                                   ).queue_controller

    @abc.abstractmethod
    def events(self, queue, project, since=None, until=None):
        """The queue's events in [since, until] (None: open), in time
        order."""

    def begin(self, queue, project):
        """Called once before the first post of a replay."""

    @abc.abstractmethod
    def post(self, queue, project, posted, target, delay, client_uuid):
        """Post ``posted`` (a posted event) to ``target`` with the
        replay's dedup digest, record a ``replayed`` event in ``queue``'s
        history, and return its ``replay.Replayed``."""

    def replay(self, queue, project, since, until, target, delay=None,
               dry_run=False, client_uuid=REPLAY_CLIENT):
        """Post the messages posted to ``queue`` in [since, until] again,
        to ``target`` (made if missing), once each; yield a
        ``replay.Replayed`` for each, those posted now first."""
        found = self.events(queue, project, since)
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


class Export(Service):
    """A queue's messages as export records (``storage.export``). Reads
    upstream's records only, so that it reads a store of upstream's
    driver of the same name (``redis`` for ``redis.delay``) too."""

    @abc.abstractmethod
    def records(self, queue, project, batch):
        """The queue's messages as ``export.record``s, in posting order,
        read ``batch`` at a time."""

    def claimed_at(self, queue, project, claim_id, tries=3):
        """When a live claim was made (or last renewed), or None.

        Counted from the claim's ``age`` and the store's clock, read
        around ``get``: whole seconds on some stores, so a ``get`` that
        straddles a second boundary is made again (one second off would
        make a claim on its due second look early). Never earlier than
        the claim. A store that keeps the time overrides it.
        """
        found = None
        for _ in range(tries):
            before = timeutils.utcnow_ts(True)
            try:
                meta, _ = self.driver.claim_controller.get(queue, claim_id,
                                                           project)
            except errors.DoesNotExist:
                return None
            after = timeutils.utcnow_ts(True)
            if not isinstance(meta['age'], int):
                return after - meta['age']
            found = int(after) - meta['age']
            if int(before) == int(after):
                break
        return found


class Migrate(abc.ABC):
    """Switches a live store between upstream's driver (``upstream``)
    and the delay one (doc/source/admin.rst). ``places()`` are what
    the store is indexed by (queues, collections); each step is
    idempotent."""

    #: The name of upstream's driver of the same store.
    upstream = None

    def __init__(self, store):
        #: What ``connect`` reached: a client, or a MongoDB's collections.
        self.store = store

    @classmethod
    @abc.abstractmethod
    def connect(cls, config_files, uri=None, database=None,
                partitions=None):
        """A Migrate of the store the config files name (or of ``uri``;
        ``database`` and ``partitions``: MongoDB's)."""

    @abc.abstractmethod
    def places(self):
        """[(name shown, place)] of the store."""

    @abc.abstractmethod
    def reindex(self, place, batch=1000, dry_run=False):
        """Index one place; yield the ``common.Counts`` of each batch."""

    @abc.abstractmethod
    def drop_index(self, place, dry_run=False):
        """Drop one place's index; return what was dropped, in words."""

    def rename(self, to_upstream, dry_run=False):
        """Give what the two drivers name apart the names of the one
        switched to (upstream's when ``to_upstream``), before ``places``
        are read; yield a line per change. Nothing, unless overridden."""
        return iter(())

    @staticmethod
    def settings(config_files, options):
        """The group of ``options`` (one of upstream's
        ``zaqar.conf.drivers_message_store_*`` modules), read from the
        config files."""
        conf = cfg.ConfigOpts()
        conf.register_opts(options.ALL_OPTS, group=options.GROUP_NAME)
        conf(args=[], project='zaqar', default_config_files=config_files)
        return conf[options.GROUP_NAME]


class Probe(abc.ABC):
    """Whether a store answers within seconds: what the commands check
    before they load a driver (``zaqar_delay.cmd.reach``)."""

    #: The option of the store's ``drivers:<role>:<store>`` group that
    #: says where to ping; a URI given to a command replaces it only
    #: when it is ``uri``.
    option = 'uri'
    #: What ``ping`` raises when the store does not answer.
    errors = (OSError,)

    @classmethod
    def where(cls, settings):
        """Where to ping the store of ``settings`` (an option group)."""
        return getattr(settings, cls.option)

    @staticmethod
    @abc.abstractmethod
    def ping(where, timeout):
        """Return once the store at ``where`` answers one request; raise
        one of ``errors`` if it does not within ``timeout`` seconds."""


# The services of a delay data driver (``common.DelaySettings``): the
# driver's attribute, then the module of the backend's package and the
# class in it that give it, and the contract above the class keeps
# (None: upstream's claim controller).
SERVICES = (
    ('claim_class', 'claims', 'ClaimController', None),
    ('push_class', 'pushes', 'Pushes', PushStore),
    ('schedule_class', 'schedules', 'Schedules', ScheduleStore),
    ('metrics_class', 'metrics', 'Metrics', MetricsReader),
    ('history_class', 'history', 'History', History),
    ('export_class', 'export', 'Export', Export),
    ('migrate_class', 'migrate', 'Migrate', Migrate),
    ('probe_class', 'probe', 'Probe', Probe),
)
