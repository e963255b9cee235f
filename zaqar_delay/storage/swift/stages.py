"""Queue and topic stages of ``swift.delay``: stats from the index,
clean deletes.

Zaqar loads them from the ``zaqar_delay.storage.swift.driver.queue.stages``
and ``...topic.stages`` entry points, named after the driver's module,
and not through the driver: they translate Swift's failures themselves
(``failures``).
"""

from zaqar.storage import errors
from zaqar.storage.swift import messages as upstream_messages

from zaqar_delay import delay
from zaqar_delay import schedules
from zaqar_delay.storage.swift import failures
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import upstream


@failures.translated
class MessageQueueHandler(upstream_messages.MessageQueueHandler):
    """Upstream's queue handler; stats count the index containers.

    ``total`` is the message container's object count, ``claimed`` and
    ``delayed`` the counts of the ``lock`` and ``waiting`` containers
    (Swift updates these counts asynchronously, so they can lag), and
    ``next_due`` the first ``due`` entry: no message is read;
    ``next_tick`` the queue's next schedule look (``schedules``).
    """

    def delete(self, name, project=None):
        super().delete(name, project)
        idx.Index(self._client, name, project).drop()

    def stats(self, name, project=None):
        if not self._queue_ctrl.exists(name, project=project):
            raise errors.QueueDoesNotExist(name, project)
        ctrl = self._message_ctrl
        index, now = ctrl.ready_view(name, project)
        first_due = index.names(idx.DUE, limit=1)
        total = 0
        with responses.tolerating(responses.NOT_FOUND):
            total = int(self._client.head_container(
                upstream.message_container(name, project))[
                    'x-container-object-count'])
        counts = delay.stats(
            total, index.count(idx.LOCK), index.count(idx.WAITING),
            idx.untimed(first_due[0]).due if first_due else None)
        try:
            oldest = ctrl.first(name, project, sort=1)
            newest = ctrl.first(name, project, sort=-1)
        except errors.QueueIsEmpty:
            pass
        else:
            for key, msg in (('oldest', oldest), ('newest', newest)):
                counts[key] = {'id': msg['id'], 'age': int(msg['age']),
                               'created': delay.iso(now - msg['age'])}
        stats = {'messages': counts}
        stats.update(schedules.next_tick(self.driver, name, project))
        return stats


# Upstream's topic stage (a topic's message container), raising a Swift
# that fails as ``errors.StoreUnavailable``.
MessageTopicHandler = failures.translated(
    upstream_messages.MessageTopicHandler)
