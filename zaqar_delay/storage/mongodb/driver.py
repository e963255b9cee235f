"""The ``mongodb.delay`` data drivers: upstream's, with the delay index.

Enable with ``[drivers] message_store = mongodb.delay`` (or
``mongodb.fifo.delay``); they connect with the
``[drivers:message_store:mongodb]`` options, like ``mongodb``. In a pool,
give the pool a ``mongodb.delay://`` (or ``mongodb.fifo.delay://``) URI:
that URI is used.
"""

from zaqar.common import decorators
from zaqar.conf import drivers_message_store_mongodb as mongodb_opts
from zaqar.storage.mongodb import driver as upstream

from zaqar_delay.storage import common
from zaqar_delay.storage.mongodb import claims
from zaqar_delay.storage.mongodb import messages

NAMES = ('mongodb.delay', 'mongodb.fifo.delay')


class _Delay(common.DelaySettings):
    """What both delay drivers add to upstream's (a mixin)."""

    @decorators.lazy_property(write=False)
    def connection(self):
        uri = common.pool_uri(self.conf, NAMES, 'mongodb')
        settings = self.conf[mongodb_opts.GROUP_NAME]
        return upstream._connection(
            common.UriOptions(settings, uri) if uri else settings)

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
