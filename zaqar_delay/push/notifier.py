"""The notifier stage: Zaqar's, pushing a delayed message when it is due.

Put it in ``[storage] message_pipeline`` instead of
``zaqar.notification.notifier``. A message due when posted is pushed at
once, as Zaqar's notifier does; a delayed one is left to the delay
driver, whose post records a pending push beside the message, in the
same atomic write; a dispatcher pushes it when it comes due
(``zaqar_delay.push.dispatcher``).

With a message store that keeps no pending pushes (upstream's drivers,
or a pooled deployment), it behaves as Zaqar's notifier.
"""

from oslo_log import log as logging
from zaqar.notification import notifier

from zaqar_delay.push import dispatcher
from zaqar_delay.storage import common

LOG = logging.getLogger(__name__)


class NotifierDriver(notifier.NotifierDriver):

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.driver = getattr(self.subscription_controller, 'driver', None)
        self.delays = bool(getattr(self.driver, 'pushes', False))
        if not self.delays:
            LOG.warning('the message store keeps no pending pushes: '
                        'messages are pushed when posted, delayed or not')
        elif self.driver.conf.delay_push.dispatch_in_server:
            dispatcher.start_in_server(self.driver, self.queue_controller,
                                       self.driver.conf)

    def post(self, queue_name, messages, client_uuid, project=None):
        if not self.delays:
            return super().post(queue_name, messages, client_uuid, project)
        delays = common.message_delays(self.driver, self.queue_controller,
                                       queue_name, project, messages)
        due = [msg for msg, delay in zip(messages, delays) if not delay]
        if due:
            super().post(queue_name, due, client_uuid, project)
