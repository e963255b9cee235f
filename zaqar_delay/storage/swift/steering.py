"""Reschedule and move messages of a ``swift.delay`` queue.

Mixed into the message controller. Swift has no transaction, so each
operation is several requests, made while the message is held
(``holds``: claims, deletes and other operations keep off it) and
ordered so that a crash after any of them leaves the message findable,
and never claimable before its due time. The order, the cost and what a
crash leaves: ``doc/source/swift.rst``, "Reschedules and moves".
"""

from oslo_serialization import jsonutils
from oslo_utils import uuidutils
from zaqar.storage import errors

from zaqar_delay import delay as rules
from zaqar_delay.storage import steering
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import holds
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import moves
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import pushes
from zaqar_delay.storage.swift import records
from zaqar_delay.storage.swift import upstream


class Steering(steering.Steering):
    """``reschedule`` and ``move`` of ``swift.delay``'s message
    controller (whose ``index``, ``found``, ``delete_object``, ``_read``,
    ``_candidates`` and ``_promotion`` they use)."""

    def reschedule(self, queue, message_id, project=None, delay=None,
                   due=None):
        """Make a message due ``delay`` seconds from now, or at ``due``
        (unix seconds; a time past, or neither: now); returns the
        message (``message.Message``). Raises QueueDoesNotExist,
        MessageDoesNotExist, MessageIsClaimed (a live claim, or another
        operation, holds it: nothing changed) or Refused (its ttl
        ends first). 14 Swift requests (15 to make it wait), one more
        with history, and one to three more to move its pending push."""
        if not self._queue_ctrl.exists(queue, project):
            raise errors.QueueDoesNotExist(queue, project)
        index = self.index(queue, project)
        now = self.driver.now_ms()
        asked = rules.due_asked(now, delay, due)
        read = self._read(queue, project, message_id)
        if read is None:
            raise errors.MessageDoesNotExist(message_id, queue, project)
        held = read.lock
        if held is not None and held.expires > now:
            raise errors.MessageIsClaimed(message_id)
        self._expires_after(message_id, read.headers, asked)
        ours = holds.hold(index, {message_id: idx.RESCHEDULING +
                                  uuidutils.generate_uuid()}, now,
                          self.driver.now)[message_id]
        if ours is None:
            raise errors.MessageIsClaimed(message_id)
        try:
            # Read again once held: a claim may have taken the message
            # (and deleted it) since the first read.
            found = self.found(queue, message_id, project)
            if found is None:
                raise errors.MessageDoesNotExist(message_id, queue, project)
            headers, body = found
            self._expires_after(message_id, headers, asked)
            content = jsonutils.loads(body)
            self._reschedule(index, message_id, headers, content, asked,
                             now)
        finally:
            index.unlock(message_id, ours)
        history.record(self._client, queue, project, history.keeps(content),
                       message_id, history.RESCHEDULED, now,
                       due='%.3f' % asked)
        return records.basic(message_id, jsonutils.dumps(content), headers,
                             int(now))

    @staticmethod
    def _expires_after(message_id, headers, due):
        expires = int(headers['x-delete-at'])
        if expires <= due:
            raise steering.expires_first(message_id, expires, due)

    def _reschedule(self, index, mid, headers, content, due, now):
        """The writes of a reschedule to ``due``, in their order: the
        entry that finds the message at its new due time; its content
        (its new due time, out of an ended claim, ``RESCHEDULED``); the
        entries of its old state and its pending push, at once."""
        expires = int(headers['x-delete-at'])
        old_due = content.get('delay_expires', 0)
        content.pop('retry_backoff', None)
        content.update(claim_id=None, delay_expires=due)
        content[records.RESCHEDULED] = 1
        if due > now:
            index.put(idx.DUE, idx.timed(due, expires, mid), expires)
            index.put(idx.WAITING, mid, expires)
            self._promotion.expect(index, due)
        else:
            index.put(idx.READY, mid, expires)
        objects.put(
            self._client,
            upstream.message_container(index.queue, index.project), mid,
            jsonutils.dumps(content), expires,
            content_type='application/json',
            headers={'x-object-meta-clientid':
                     headers.get('x-object-meta-clientid', '')})
        stale = [(idx.READY if due > now else idx.WAITING, mid)]
        stale += [(idx.DUE, name)
                  for name in idx.due_names(old_due, expires, mid)]
        kept = idx.timed(due, expires, mid) if due > now else None
        calls = [lambda kind=kind, name=name: index.delete(kind, name)
                 for kind, name in stale if name != kept]
        if self.driver.pushes:
            calls.append(lambda: pushes.reschedule(
                self._client, mid, index.queue, index.project, old_due,
                expires, due))
        parallel.together(*calls)

    def move(self, queue, target, project=None, ids=None, limit=None,
             delay=None, due=None):
        """Move the messages ``ids`` (or the first ``limit`` ready or
        waiting by posting order) that no live claim holds to the queue
        ``target`` of the project, due ``delay`` seconds from now, at
        ``due``, or now; returns [(old id, new id)] of those moved. Raises
        QueueDoesNotExist. Requests: ``moves.Move.of``'s, and for
        ``limit`` the listings of ``ready`` and ``waiting``."""
        for name in (queue, target):
            if not self._queue_ctrl.exists(name, project):
                raise errors.QueueDoesNotExist(name, project)
        keep = self._history_ttl(target, project)
        now = self.driver.now_ms()
        move = moves.Move(self, queue, target, project,
                          rules.due_asked(now, delay, due), now, keep)
        if ids is not None:
            return move.of(list(dict.fromkeys(ids)))
        index = self.index(queue, project)
        moved, marker, examined = [], None, 0
        bound = limit + self.driver.delay_conf.promote_batch_size
        while len(moved) < limit and examined < bound:
            names = self._candidates(index, [idx.READY, idx.WAITING],
                                     marker, limit - len(moved))
            if not names:
                break
            marker, examined = names[-1], examined + len(names)
            moved += move.of(names)
        return moved
