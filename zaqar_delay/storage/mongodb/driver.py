"""The ``mongodb.delay`` data drivers: upstream's, with the delay index.

Enable with ``[drivers] message_store = mongodb.delay`` (or
``mongodb.fifo.delay``); they connect with the
``[drivers:message_store:mongodb]`` options, like ``mongodb``. In a pool,
give the pool a ``mongodb.delay://`` (or ``mongodb.fifo.delay://``) URI:
that URI is used.
"""

from zaqar.common import decorators
from zaqar.conf import drivers_message_store_mongodb as mongodb_opts
from zaqar.storage.mongodb import driver as upstream_driver

from zaqar_delay.storage import common
from zaqar_delay.storage.mongodb import messages
from zaqar_delay.storage.mongodb import upstream

NAMES = ('mongodb.delay', 'mongodb.fifo.delay')


class _Delay(common.DelaySettings, backend=__package__):
    """What both delay drivers add to upstream's (a mixin)."""

    @decorators.lazy_property(write=False)
    def connection(self):
        return upstream.connection(common.pool_options(
            self.conf, NAMES, 'mongodb', mongodb_opts.GROUP_NAME))


class DataDriver(_Delay, upstream_driver.DataDriver):
    """``mongodb.delay``."""

    message_class = messages.MessageController


class FIFODataDriver(_Delay, upstream_driver.FIFODataDriver):
    """``mongodb.fifo.delay``: ``mongodb.fifo`` with the delay index."""

    message_class = messages.FIFOMessageController
