"""What every ``*.delay`` driver does the same way around its storage."""

import collections
import importlib

from oslo_config import cfg
from oslo_utils import timeutils
from zaqar.common import decorators
from zaqar.conf import transport
from zaqar.storage import errors

from zaqar_delay import dedup
from zaqar_delay import delay
from zaqar_delay.history import events as history
from zaqar_delay import opts
from zaqar_delay import pending
from zaqar_delay.storage import base

# What a migration found in a batch of messages, by state.
Counts = collections.namedtuple('Counts', 'ready waiting claimed gone')


# The classes of a driver that ``translate`` applies to.
TRANSLATED = ('message_class', 'claim_class', 'subscription_class') + tuple(
    attr for attr, *_ in base.SERVICES if attr != 'probe_class')


class DelaySettings:
    """Mixed into each delay data driver, before upstream's driver.

    Registers zaqar-delay's options and gives the controllers
    ``driver.delay_conf`` (``[delay]``) and ``driver.max_delay``
    (``[transport] max_message_delay``). The message and claim
    controllers are the driver's ``message_class`` and ``claim_class``;
    every other controller is upstream's. ``pushes`` tells whether the
    store keeps pending pushes (zaqar-delay's notifier stage is in the
    message pipeline); ``push_store`` (``push_class``) gives them to a
    dispatcher, and ``schedule_store`` (``schedule_class``) the schedule
    index (``zaqar_delay.schedules``). The other services a driver keeps
    are named the same way (``storage.base``).
    """

    message_class = claim_class = push_class = schedule_class = None
    metrics_class = history_class = export_class = migrate_class = None
    probe_class = subscription_class = None

    def __init_subclass__(cls, backend=None, translate=None, **kwargs):
        """``backend``: the package whose modules give the driver's
        services (``base.SERVICES``) that its class body does not name;
        TypeError if one breaks its contract. ``translate``: a class
        decorator raising the store's failures as Zaqar's errors, applied
        to each class the driver names but the probe (whose contract
        raises its own)."""
        super().__init_subclass__(**kwargs)
        for attr, module, name, contract in base.SERVICES if backend else ():
            found = cls.__dict__.get(attr) or getattr(
                importlib.import_module('%s.%s' % (backend, module)), name)
            if contract is not None and not issubclass(found, contract):
                raise TypeError('%s.%s.%s is no %s' % (
                    backend, module, name, contract.__name__))
            setattr(cls, attr, found)
        for attr in TRANSLATED if translate else ():
            if getattr(cls, attr, None) is not None:
                setattr(cls, attr, translate(getattr(cls, attr)))

    def __init__(self, conf, cache, control_driver):
        opts.register_opts(conf)
        self.delay_conf = conf[opts.GROUP]
        self.max_delay = conf[transport.GROUP_NAME].max_message_delay
        self.pushes = pending.enabled(conf) and self.push_class is not None
        super().__init__(conf, cache, control_driver)

    def now(self):
        """The time claims are judged by, whole seconds: Zaqar's clock
        (this host's) unless a driver takes its store's."""
        return timeutils.utcnow_ts()

    def clock(self):
        """The same clock in fractional seconds."""
        return timeutils.utcnow_ts(microsecond=True)

    def now_ms(self):
        """The time due times are judged by: ``clock()`` down to the
        millisecond (``delay.floor_ms``); ``int()`` of it is ``now()``."""
        return delay.floor_ms(self.clock())

    def _store(self, cls, what):
        if cls is None:
            raise NotImplementedError('%s keeps no %s'
                                      % (type(self).__name__, what))
        return cls(self)

    @decorators.lazy_property(write=False)
    def push_store(self):
        return self._store(self.push_class, 'pending pushes')

    @decorators.lazy_property(write=False)
    def schedule_store(self):
        return self._store(self.schedule_class, 'schedule index')

    @decorators.lazy_property(write=False)
    def message_controller(self):
        return self.message_class(self)

    @decorators.lazy_property(write=False)
    def claim_controller(self):
        return self.claim_class(self)

    @decorators.lazy_property(write=False)
    def subscription_controller(self):
        """Upstream's, unless the driver names a ``subscription_class``."""
        if self.subscription_class is None:
            return super().subscription_controller
        return self.subscription_class(self)


def _metadata(queue_controller, queue, project):
    try:
        return queue_controller.get_metadata(queue, project)
    except errors.QueueDoesNotExist:
        return {}


def post_plan(driver, queue_controller, queue, project, messages,
              metadata=None):
    """(delays, dedups, history ttl) of posted messages, from one read
    of the queue's metadata, or from ``metadata`` when the caller gives
    it (read just before: no read): each one's checked delay (Refused
    for a refused one; a message without ``delay`` gets the queue's
    default), its ``dedup.Dedup`` or None, and the queue's history ttl
    (seconds, 0 for none: ``zaqar_delay.history.events``)."""
    if metadata is None:
        metadata = _metadata(queue_controller, queue, project)
    return plan(driver, metadata, messages)


def plan(driver, metadata, messages):
    """``post_plan`` from the queue's metadata, already read."""
    delays = delay.prepare(messages, delay.queue_default(metadata),
                           driver.max_delay,
                           driver.delay_conf.ttl_shorter_than_delay,
                           driver.clock())
    return (delays, dedup.of_messages(metadata, messages),
            history.of_queue(metadata, driver.delay_conf.max_history_ttl))


def plain_uri(uri, backend):
    """``uri`` with the scheme of upstream's driver ``backend``, which its
    client understands: ``redis.delay://h`` -> ``redis://h``."""
    scheme, sep, rest = uri.partition('://')
    if scheme == backend or scheme.startswith(backend + '.'):
        return backend + sep + rest
    return uri


def pool_uri(conf, names, scheme):
    """The pool's URI, with ``scheme``, when ``conf`` is a pool's.

    In a pool, Zaqar gives the URI (``<driver name>://...``) in the group
    ``drivers:message_store:<driver name>``; outside one there is no such
    group and None is returned.
    """
    for name in names:
        try:
            uri = conf['drivers:message_store:' + name].uri
        except (cfg.NoSuchOptError, cfg.NoSuchGroupError, KeyError):
            continue
        if uri:
            return plain_uri(uri, scheme)
    return None


def pool_options(conf, names, scheme, group):
    """The driver's option group ``conf[group]``, with the pool's URI
    (``pool_uri``) instead of its own when ``conf`` is a pool's."""
    uri = pool_uri(conf, names, scheme)
    return UriOptions(conf[group], uri) if uri else conf[group]


class UriOptions:
    """A driver's option group, with another URI."""

    def __init__(self, group, uri):
        self._group, self.uri = group, uri

    def __getattr__(self, name):
        return getattr(self._group, name)


def pop(message_controller, queue, limit, project, delete=None):
    """Pop as a claim: claim up to ``limit`` for a minute, delete what
    the claim took (only while it holds it), drop the claim. Upstream's
    redis pop claims for one second, which a whole-second clock can end
    at once, so that another claimer could take a message the pop
    returns. ``delete(queue, ids, project, claim_id)`` replaces the
    controller's ``bulk_delete`` (a driver that records pops)."""
    claims = message_controller.driver.claim_controller
    claim_id, messages = claims.create(queue, {'ttl': 60, 'grace': 0},
                                       project, limit=limit)
    if not claim_id:
        return []
    messages = list(messages)
    ids = [msg['id'] for msg in messages]
    if delete is None:
        message_controller.bulk_delete(queue, ids, project,
                                       claim_ids=[claim_id])
    else:
        delete(queue, ids, project, claim_id)
    claims.delete(queue, claim_id, project)
    return messages
