"""Queue stage of ``mongodb.delay``: stats that know about delays.

Zaqar loads it from the ``zaqar_delay.storage.mongodb.driver.queue.stages``
entry point, named after the driver's module.
"""

from oslo_utils import timeutils
from zaqar.storage import errors
from zaqar.storage.mongodb import messages as upstream
from zaqar.storage.mongodb import utils

from zaqar_delay import delay
from zaqar_delay.storage.mongodb import messages as delay_messages


class MessageQueueHandler(upstream.MessageQueueHandler):
    """Upstream's queue handler, whose stats count by state.

    ``claimed`` and ``delayed`` are counted on the ``p_q s a`` index
    (documents whose claim or wait has not ended), ``total`` on the
    queue; ``free`` is the rest and ``next_due`` the earliest ``d``.
    """

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def stats(self, name, project=None):
        if not self.queue_controller.exists(name, project=project):
            raise errors.QueueDoesNotExist(name, project)
        ctrl = self.message_controller
        collection = ctrl._collection(name, project)
        scope = utils.scope_queue_name(name, project)
        now = timeutils.utcnow_ts()

        def ending_later(state):
            return {'p_q': scope, 's': state, 'a': {'$gt': now}}

        index = delay_messages.ENDS_INDEX
        first_due = collection.find_one(
            ending_later(delay_messages.WAITING), projection={'a': 1},
            sort=[('a', 1)])
        counts = delay.stats(
            collection.count_documents({'p_q': scope, 'tx': None}),
            collection.count_documents(
                ending_later(delay_messages.CLAIMED), hint=index),
            collection.count_documents(
                ending_later(delay_messages.WAITING), hint=index),
            first_due['a'] if first_due else None)
        try:
            oldest = ctrl.first(name, project=project, sort=1)
            newest = ctrl.first(name, project=project, sort=-1)
        except errors.QueueIsEmpty:
            pass
        else:
            counts['oldest'] = utils.stat_message(oldest, now)
            counts['newest'] = utils.stat_message(newest, now)
        return {'messages': counts}
