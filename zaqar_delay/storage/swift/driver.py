"""The ``swift.delay`` data driver: upstream's, with the delay index.

Enable it with ``[drivers] message_store = swift.delay``; it connects with
the ``[drivers:message_store:swift]`` options, like ``swift``. In a pool,
give the pool a ``swift.delay://user:password@/project`` URI: that URI is
used.

Every controller and service it names raises a Swift that fails as
``errors.StoreUnavailable`` (``failures``); the probe, which pings
Keystone, raises its ``errors``.
"""

from zaqar.common import decorators
from zaqar.conf import drivers_message_store_swift as swift_opts
from zaqar.storage.swift import driver as upstream_driver
from zaqar.storage.swift import subscriptions

from zaqar_delay.storage import common
from zaqar_delay.storage.swift import client
from zaqar_delay.storage.swift import failures
from zaqar_delay.storage.swift import messages
from zaqar_delay.storage.swift import promotion
from zaqar_delay.storage.swift import upstream

NAME = 'swift.delay'


class DataDriver(common.DelaySettings, upstream_driver.DataDriver,
                 backend=__package__, translate=failures.translated):
    """Upstream's swift DataDriver with the delay message and claim
    controllers, pending pushes, the schedule index, and a client that
    keeps its connections (``client.Client``)."""

    message_class = messages.MessageController
    subscription_class = subscriptions.SubscriptionController

    def __init__(self, conf, cache, control_driver):
        super().__init__(conf, cache, control_driver)
        self.swift_conf = common.pool_options(conf, (NAME,), 'swift',
                                              swift_opts.GROUP_NAME)

    @decorators.lazy_property(write=False)
    def promotion(self):
        """The promotion of this driver's queues, which its message and
        claim controllers share (``promotion.Promotion``)."""
        return promotion.Promotion(
            self.connection, lambda: self.delay_conf.promote_batch_size)

    @decorators.lazy_property(write=False)
    def connection(self):
        return client.Client(upstream.ClientWrapper(self.swift_conf),
                             insecure=self.swift_conf.insecure)
