"""Queue stage of ``mongodb.delay``: stats that know about delays.

Zaqar loads it from the ``zaqar_delay.storage.mongodb.driver.queue.stages``
entry point, named after the driver's module.
"""

from zaqar.storage import errors
from zaqar.storage.mongodb import messages as upstream_messages
from zaqar.storage.mongodb import utils

from zaqar_delay import delay
from zaqar_delay import schedules
from zaqar_delay.storage.mongodb import queries


class MessageQueueHandler(upstream_messages.MessageQueueHandler):
    """Upstream's queue handler, whose stats count by state.

    ``claimed`` and ``delayed`` are counted on the ``p_q s a`` index
    (documents whose claim or wait has not ended), ``total`` on the
    ``p_q s k`` index, one state at a time (a document without a state is
    not counted: it is half-posted, or awaits ``migrate``); ``free`` is
    the rest and ``next_due`` the earliest ``d``, to the millisecond.
    Due times are judged by ``driver.now_ms()``.
    """

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def stats(self, name, project=None):
        if not self.queue_controller.exists(name, project=project):
            raise errors.QueueDoesNotExist(name, project)
        ctrl = self.message_controller
        collection = ctrl.collection(name, project)
        scope = utils.scope_queue_name(name, project)
        now = self.driver.now_ms()

        def count(query):
            return collection.count_documents(query.filter)

        waiting = queries.ending_later(scope, queries.WAITING, now)
        first_due = collection.find_one(waiting.filter, projection={'a': 1},
                                        sort=waiting.sort)
        counts = delay.stats(
            sum(count(queries.in_state(scope, state))
                for state in (queries.READY, queries.WAITING,
                              queries.CLAIMED)),
            count(queries.ending_later(scope, queries.CLAIMED, now)),
            count(waiting),
            first_due['a'] if first_due else None)
        try:
            oldest = ctrl.first(name, project=project, sort=1)
            newest = ctrl.first(name, project=project, sort=-1)
        except errors.QueueIsEmpty:
            pass
        else:
            counts['oldest'] = utils.stat_message(oldest, int(now))
            counts['newest'] = utils.stat_message(newest, int(now))
        return dict(schedules.next_tick(self.driver, name, project),
                    messages=counts)
