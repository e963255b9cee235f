"""The notifier stage: Zaqar's, with every push made by a dispatcher.

Put it in ``[storage] message_pipeline`` instead of
``zaqar.notification.notifier``. With a delay driver, the driver's post
records a pending push beside each message it stores (in the same
atomic write on redis and mongodb, just before it on swift, or once the
post owns its dedup key); a dispatcher pushes it when it comes due
(``zaqar_delay.push.runner``), due when posted or delayed, with the
same body; a duplicate that deduplication refuses is not stored, nor
pushed. This stage only wakes the in-server dispatcher, which runs
before the message is stored: the dispatcher looks again a moment later
(``Runner.poke``), and within ``[delay_push] poll_interval`` at most.

With a message store that keeps no pending pushes (upstream's drivers),
it behaves as Zaqar's notifier. In a pooled deployment Zaqar builds the
message pipeline in front of the pool catalog, and again in front of
each pool's driver. The stage in front of the catalog starts the
in-server dispatchers, one per pool (``zaqar_delay.push.pools``).
"""

from oslo_log import log as logging
from zaqar.notification import notifier
from zaqar.storage import pooling

from zaqar_delay import opts
from zaqar_delay.push import pools
from zaqar_delay.push import runner
from zaqar_delay.push import upstream

LOG = logging.getLogger(__name__)


class NotifierDriver(notifier.NotifierDriver):

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.routing = isinstance(self.subscription_controller,
                                  pooling.SubscriptionController)
        self.driver = getattr(self.subscription_controller, 'driver', None)
        self.delays = bool(getattr(self.driver, 'pushes', False))
        self.dispatcher = None
        if self.routing:
            # Each pool's own pipeline has this stage; this one starts the
            # in-server dispatchers of every pool.
            control = upstream.pool_catalog(self.subscription_controller
                                            ).control
            opts.register_opts(control.conf)
            self.pools = None
            if control.conf[opts.PUSH_GROUP].dispatch_in_server:
                self.pools = pools.start_in_server(control)
            return
        if not self.delays:
            LOG.warning('the message store keeps no pending pushes: '
                        'messages are pushed when posted, delayed or not')
        elif (self.driver.conf[opts.PUSH_GROUP].dispatch_in_server and
              not self.driver.conf.pooling):
            self.dispatcher = runner.start_in_server(
                self.driver, self.queue_controller, self.driver.conf)

    def post(self, queue_name, messages, client_uuid, project=None):
        if self.routing:
            if self.pools is not None:
                self.pools.poke()
            return
        if not self.delays:
            return super().post(queue_name, messages, client_uuid, project)
        if self.dispatcher is not None:
            self.dispatcher.poke()
