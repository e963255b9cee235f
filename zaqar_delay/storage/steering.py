"""What the stores' ``reschedule`` and ``move`` share (the
``wsgi.delay`` transport's operations, doc/source/waiting.rst)."""

from zaqar_delay import delay as rules
from zaqar_delay import errors as delay_errors
from zaqar_delay.history import events as history


def expires_first(message_id, expires, due):
    """The Refused a reschedule or move raises for a message that
    expires (unix seconds) at or before its new due time."""
    return delay_errors.Refused(
        'Message {0} expires at {1}, before its new due time {2}.',
        message_id, rules.iso_ms(expires), rules.iso_ms(due))


class Steering:
    """Mixed into a store's message controller, under its ``reschedule``
    and ``move``, which promise:

    - ``reschedule(queue, message_id, project, delay, due)`` makes a
      message due ``delay`` seconds from now, or at ``due`` (unix
      seconds), and returns it; raises MessageDoesNotExist,
      MessageIsClaimed (a live claim holds it: nothing changed) or
      Refused (its ttl ends first).
    - ``move(queue, target, project, ids, limit, delay, due)`` moves the
      messages ``ids`` (or the first ``limit`` by posting order) that no
      live claim holds to the queue ``target`` of the project, due as a
      reschedule's (or now); returns [(old id, new id)] of those moved.
    """

    def _first_ids(self, queue, project, limit):
        """The ids of the queue's first ``limit`` unclaimed messages by
        posting order, waiting or not: one list call."""
        page = next(self.list(queue, project, limit=limit, echo=True,
                              include_delayed=True))
        return [message['id'] for message in page]

    def _history_ttl(self, target, project):
        """The history ttl of messages moved into the queue ``target``
        (``history.of_queue``): one read of its metadata."""
        return history.of_queue(
            self._queue_ctrl.get_metadata(target, project),
            self.driver.delay_conf.max_history_ttl)
