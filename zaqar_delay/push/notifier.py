"""The notifier stage: Zaqar's, pushing a delayed message when it is due.

Put it in ``[storage] message_pipeline`` instead of
``zaqar.notification.notifier``. A message due when posted is pushed at
once, as Zaqar's notifier does; a delayed one (or one with a
deduplication key, which is pushed only if stored) is left to the delay
driver, whose post records a pending push beside the message (in the
same atomic write on redis and mongodb, just before it on swift); a
dispatcher pushes it when it comes due
(``zaqar_delay.push.dispatcher``).

With a message store that keeps no pending pushes (upstream's drivers),
it behaves as Zaqar's notifier. In a pooled deployment Zaqar builds the
message pipeline in front of the pool catalog, and again in front of
each pool's driver. The stage in front of the catalog passes, and the
one in front of the pool pushes (once), as above for that pool's store;
the in-server dispatchers are started by the first, one per pool
(``zaqar_delay.push.pools``).
"""

from oslo_log import log as logging
from zaqar.notification import notifier
from zaqar.storage import pooling

from zaqar_delay import opts
from zaqar_delay.push import dispatcher
from zaqar_delay.push import pools
from zaqar_delay.storage import common
from zaqar_delay.storage import upstream

LOG = logging.getLogger(__name__)


class NotifierDriver(notifier.NotifierDriver):

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.routing = isinstance(self.subscription_controller,
                                  pooling.SubscriptionController)
        self.driver = getattr(self.subscription_controller, 'driver', None)
        self.delays = bool(getattr(self.driver, 'pushes', False))
        if self.routing:
            # Each pool's own pipeline has this stage; this one starts the
            # in-server dispatchers of every pool.
            control = upstream.pool_catalog(self.subscription_controller
                                            ).control
            opts.register_opts(control.conf)
            self.pools = None
            if control.conf.delay_push.dispatch_in_server:
                self.pools = pools.start_in_server(control)
            return
        if not self.delays:
            LOG.warning('the message store keeps no pending pushes: '
                        'messages are pushed when posted, delayed or not')
        elif (self.driver.conf.delay_push.dispatch_in_server and
              not self.driver.conf.pooling):
            dispatcher.start_in_server(self.driver, self.queue_controller,
                                       self.driver.conf)

    def post(self, queue_name, messages, client_uuid, project=None):
        if self.routing:
            if self.pools is not None:
                self.pools.poke()
            return
        if not self.delays:
            return super().post(queue_name, messages, client_uuid, project)
        # A deduplicated message is pushed by a dispatcher, once the
        # driver has stored it: a duplicate is not stored, nor pushed.
        delays, dedups = common.post_terms(self.driver, self.queue_controller,
                                           queue_name, project, messages)
        due = [msg for msg, delay, dedup in zip(messages, delays, dedups)
               if not delay and not dedup]
        if due:
            super().post(queue_name, due, client_uuid, project)
