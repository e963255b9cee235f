"""Reschedule and move messages of a ``redis.delay`` queue.

Mixed into the message controller: each operation is one script
(``scripts/reschedule.lua``, ``scripts/move.lua``), atomic with claims,
so a message is either rescheduled (or moved) or claimed, never both,
and never claimable before its new due time.
"""

from oslo_utils import uuidutils
from zaqar.storage import errors
from zaqar.storage.redis import utils

from zaqar_delay import delay as rules
from zaqar_delay import pending
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage import steering

# Reply codes of reschedule.lua.
RESCHEDULED, NO_MESSAGE, CLAIMED, EXPIRES_FIRST = 0, 1, 2, 3


class Steering(steering.Steering):
    """``reschedule`` and ``move`` (``storage.steering``)."""

    def _push_suffix(self, queue, project):
        if not self.driver.pushes:
            return ''
        return pending.suffix(queue, keys.unscoped_project(project))

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def reschedule(self, queue, message_id, project=None, delay=None,
                   due=None):
        """``steering.Steering``'s reschedule: two round trips."""
        if not self._queue_ctrl.exists(queue, project):
            raise errors.QueueDoesNotExist(queue, project)
        now = self.driver.now_ms()
        asked = rules.due_asked(now, delay, due)
        suffix = self._push_suffix(queue, project)
        reply = self._lua['reschedule'](
            keys=list(keys.index(queue, project)) + [
                keys.PUSHES, keys.history(queue, project), message_id],
            args=[now, '%.3f' % asked,
                  message_id + suffix if suffix else '', keys.WAKE])
        code = int(reply[0])
        if code == NO_MESSAGE:
            raise errors.MessageDoesNotExist(message_id, queue, project)
        if code == CLAIMED:
            raise errors.MessageIsClaimed(message_id)
        if code == EXPIRES_FIRST:
            raise steering.expires_first(message_id, int(reply[1]), asked)
        return self.get(queue, message_id, project)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def move(self, queue, target, project=None, ids=None, limit=None,
             delay=None, due=None):
        """``steering.Steering``'s move: raises QueueDoesNotExist (either
        queue). One script call, and a list call for ``limit``."""
        for name in (queue, target):
            if not self._queue_ctrl.exists(name, project):
                raise errors.QueueDoesNotExist(name, project)
        if ids is None:
            ids = self._first_ids(queue, project, limit)
        if not ids:
            return []
        keep = self._history_ttl(target, project)
        now = self.driver.now_ms()
        pairs = []
        for mid in ids:
            pairs += [mid, uuidutils.generate_uuid()]
        moved = self._lua['move'](
            keys=list(keys.index(queue, project)) +
            list(keys.index(target, project)) + [
                keys.rank_counter(target, project), keys.PUSHES,
                keys.history(queue, project), keys.history(target, project)
            ] + pairs,
            args=[now, '%.3f' % rules.due_asked(now, delay, due),
                  self._push_suffix(queue, project),
                  self._push_suffix(target, project), keys.WAKE, target,
                  keep])
        moved = [m.decode() if isinstance(m, bytes) else m for m in moved]
        return list(zip(moved[::2], moved[1::2]))
