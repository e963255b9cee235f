"""The pending pushes of a ``redis.delay`` store.

One sorted set per store, ``zaqar_delay.pushes`` (see the message
controller's docstring): each message's push, scored by its due time,
written by the post script when pushes are on. A hash
``zaqar_delay.pushes.delivered`` (push -> subscribers, line feeds
between) holds the subscribers that answered 2xx for a push not yet
done, so that a dispatcher taking it after another's lease ended skips
them; ``done`` removes the push from both. Failed pushes
(``pending.FAILED_FIELDS``): a hash ``zaqar_delay.pushes.failed``
(record key -> JSON) and a sorted set ``zaqar_delay.pushes.failed_at``
(record key -> when it failed), trimmed of records older than the
retention when one is added. A post that adds a push due before every
pending one publishes its due time on ``zaqar_delay.pushes.wake``
(``keys.WAKE``), which ``watch`` listens to.
"""

import threading

from oslo_log import log as logging
from oslo_serialization import jsonutils
from zaqar.storage.redis import utils

from zaqar_delay import pending
from zaqar_delay.storage import base
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import zsets

LOG = logging.getLogger(__name__)
# Seconds between two tries to listen again after the connection failed.
RELISTEN = 1.0


class Pushes(base.PushStore):
    """What a dispatcher needs of the store: take, delivered, done,
    next due, and ``watch`` for earlier pushes."""

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def take(self, now, limit, lease):
        """Up to ``limit`` due pushes, held for ``lease`` seconds, with
        the subscribers recorded as delivered to and the score each was
        taken at (``due``): one script call."""
        taken, delivered, scores = self.driver.scripts['push_take'](
            keys=[keys.PUSHES, keys.PUSHES_DELIVERED],
            args=[now, limit, now + lease])
        found = []
        for member, subscribers, due in zip(taken, delivered, scores):
            member = member.decode() if isinstance(member, bytes) else member
            message_id, queue, project = pending.parse(member)
            found.append(pending.Push(
                project, queue, message_id, member,
                pending.split_subscribers(subscribers), float(due)))
        return found

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def delivered(self, records):
        """Record, for each ``(push, subscribers)``, the subscribers
        that answered 2xx for a push not done yet: one request."""
        args = []
        for push, subscribers in records:
            args += [push.handle, pending.join_subscribers(subscribers)]
        if args:
            self.driver.scripts['push_delivered'](
                keys=[keys.PUSHES_DELIVERED], args=args)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def done(self, pushes, attempts=None):
        """Forget pushes that were made (or whose message is gone), and
        their subscribers delivered to; record ``attempts`` (a tuple of
        ``pending.Attempt`` per push) in the history of messages that
        keep one: one script call (``push_done.lua``)."""
        if not pushes:
            return
        script_keys = [keys.PUSHES, keys.PUSHES_DELIVERED]
        args = []
        for push, tried in zip(pushes, attempts or [()] * len(pushes)):
            script_keys += [push.message_id,
                            keys.history(push.queue, push.project)]
            args += [push.handle, len(tried)]
            for attempt in tried:
                args += [attempt.at, attempt.subscriber,
                         '' if attempt.status is None else attempt.status]
        self.driver.scripts['push_done'](keys=script_keys, args=args)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def next_due(self, before=None):
        """The earliest due time (or lease expiry) pending, or None
        (``base.PushStore.next_due``): one O(log n) read."""
        earliest = zsets.earliest(self.driver.connection, keys.PUSHES)
        return pending.earlier(earliest, before)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def pending(self, limit):
        """Up to ``limit`` pending pushes, earliest due first, as
        ``pending.listed`` records: one round trip."""
        client = self.driver.connection
        first = client.zrange(keys.PUSHES, 0, limit - 1, withscores=True)
        if not first:
            return []
        delivered = client.hmget(keys.PUSHES_DELIVERED,
                                 [member for member, _ in first])
        found = []
        for (member, at), subscribers in zip(first, delivered):
            member = member.decode() if isinstance(member, bytes) else member
            message_id, queue, project = pending.parse(member)
            found.append(pending.listed(pending.Push(
                project, queue, message_id, member,
                pending.split_subscribers(subscribers)), round(at, 3)))
        return found

    def count(self):
        return self.driver.connection.zcard(keys.PUSHES)

    def watch(self, wake, stop):
        """Set the event ``wake`` whenever a post adds a push due before
        every pending one, until the event ``stop`` is set: a daemon
        thread subscribed to ``keys.WAKE`` (one connection), which
        subscribes again after a connection failure."""
        thread = threading.Thread(target=self._listen, args=(wake, stop),
                                  name='zaqar-delay-push-wake', daemon=True)
        thread.start()
        return thread

    def _listen(self, wake, stop):
        while not stop.is_set():
            pubsub = self.driver.connection.pubsub(
                ignore_subscribe_messages=True)
            try:
                pubsub.subscribe(keys.WAKE)
                # A push may have been added while not subscribed.
                wake.set()
                while not stop.is_set():
                    if pubsub.get_message(timeout=RELISTEN):
                        wake.set()
            except Exception as exc:
                LOG.warning('listening for earlier pushes failed (%s); '
                            'again in %s s', exc, RELISTEN)
                stop.wait(RELISTEN)
            finally:
                pubsub.close()

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def fail(self, record, retention):
        """Keep a failed push's record; drop those older than
        ``retention`` seconds (at most 100 a call)."""
        self.driver.scripts['push_failed'](
            keys=[keys.FAILED_PUSHES, keys.FAILED_PUSHES_AT],
            args=[record['key'], jsonutils.dumps(record), record['at'],
                  record['at'] - retention])

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def failed(self, limit):
        """Up to ``limit`` failed-push records, oldest first."""
        client = self.driver.connection
        found = client.zrange(keys.FAILED_PUSHES_AT, 0, limit - 1)
        if not found:
            return []
        return [jsonutils.loads(record) for record in client.hmget(
            keys.FAILED_PUSHES, found) if record]

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def forget_failed(self, records):
        """Delete failed-push records (as ``failed`` gave them)."""
        record_keys = [record['key'] for record in records]
        if record_keys:
            self.driver.scripts['push_forget'](
                keys=[keys.FAILED_PUSHES, keys.FAILED_PUSHES_AT],
                args=record_keys)
