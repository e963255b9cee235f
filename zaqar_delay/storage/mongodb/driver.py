"""The ``mongodb.delay`` data drivers: upstream's, with the delay index.

Enable with ``[drivers] message_store = mongodb.delay`` (or
``mongodb.fifo.delay``); they connect with the
``[drivers:message_store:mongodb]`` options, like ``mongodb``. In a pool,
give the pool a ``mongodb.delay://`` (or ``mongodb.fifo.delay://``) URI:
that URI is used.
"""

from oslo_config import cfg
from zaqar.common import decorators
from zaqar.conf import drivers_message_store_mongodb as mongodb_opts
from zaqar.conf import transport
from zaqar.storage.mongodb import driver as upstream

from zaqar_delay import opts
from zaqar_delay.storage.mongodb import claims
from zaqar_delay.storage.mongodb import messages

NAMES = ('mongodb.delay', 'mongodb.fifo.delay')


def pool_uri(conf):
    """The pool's URI with the ``mongodb`` scheme, or None (not pooled)."""
    for name in NAMES:
        try:
            uri = conf['drivers:message_store:' + name].uri
        except (cfg.NoSuchOptError, cfg.NoSuchGroupError, KeyError):
            continue
        if uri:
            return 'mongodb' + uri[len(name):]
    return None


class _Options:
    """Upstream's mongodb options, with the pool's URI when pooled."""

    def __init__(self, group, uri):
        self._group, self.uri = group, uri

    def __getattr__(self, name):
        return getattr(self._group, name)


class _Delay:
    """What both delay drivers add to upstream's (a mixin)."""

    def __init__(self, conf, cache, control_driver):
        opts.register_opts(conf)
        self.delay_conf = conf[opts.GROUP]
        self.max_delay = conf[transport.GROUP_NAME].max_message_delay
        super().__init__(conf, cache, control_driver)

    @decorators.lazy_property(write=False)
    def connection(self):
        uri = pool_uri(self.conf)
        settings = self.conf[mongodb_opts.GROUP_NAME]
        return upstream._connection(
            _Options(settings, uri) if uri else settings)

    @decorators.lazy_property(write=False)
    def claim_controller(self):
        return claims.ClaimController(self)


class DataDriver(_Delay, upstream.DataDriver):
    """``mongodb.delay``."""

    @decorators.lazy_property(write=False)
    def message_controller(self):
        return messages.MessageController(self)


class FIFODataDriver(_Delay, upstream.FIFODataDriver):
    """``mongodb.fifo.delay``: ``mongodb.fifo`` with the delay index."""

    @decorators.lazy_property(write=False)
    def message_controller(self):
        return messages.FIFOMessageController(self)
