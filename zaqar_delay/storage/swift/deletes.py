"""Deletes of the ``swift.delay`` message controller.

``delete``, ``bulk_delete`` and the delete of a pop (``_bulk_delete``):
a message, then its index entries and lock. A delete with a claim needs
that claim's live lock on the message; one without a claim takes the
message's lock first (``DELETE_HOLD`` seconds), so that no claim writes
the message back after it; a message that keeps history gets its
``deleted`` event. Order and cost in requests: doc/source/swift.rst and
doc/source/failures.rst.
"""

from oslo_serialization import jsonutils
from oslo_utils import timeutils
from oslo_utils import uuidutils
from zaqar.storage import errors

from zaqar_delay.history import events
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import stored

# How long a delete without a claim holds a message's lock (seconds): a
# crash between taking it and deleting the message hides the message for
# no longer than this (promotion gives back a claimed one under it).
DELETE_HOLD = 60


class Deletes:
    """The delete part of the message controller (a mixin, placed before
    upstream's controller, whose ``_delete`` it uses with the controller's
    ``index``, ``found`` and ``_read``)."""

    def _drop(self, queue, project, mid, headers, msg, held, now,
              ours=None, claim=None, popped=False):
        """Delete a message object, then its index entries at once: with
        ``held``, the Lock it had when read (None: no lock), live, only
        those of a claimed message; then ``ours``, the Lock the delete
        took (``_hold``), if any; then its ``deleted`` event (``claim``:
        the claim deleting it), when it keeps history."""
        index = self.index(queue, project)
        expires = int(headers['x-delete-at'])
        content = jsonutils.loads(msg)
        self._delete(queue, mid, project)
        entries = []
        if held is None or held.expires <= now:
            due = content.get('delay_expires', 0)
            entries += [(idx.READY, mid), (idx.WAITING, mid),
                        (idx.DUE, idx.timed(due, expires, mid))]
            if isinstance(due, int):
                # Posted by an earlier version: its entry may be named in
                # whole seconds.
                entries.append((idx.DUE, idx.legacy_timed(due, expires,
                                                          mid)))
        deletes = [lambda kind=kind, name=name: index.delete(kind, name)
                   for kind, name in entries]
        if held is not None:
            legacy = idx.legacy_held_until(
                held.expires, expires, mid, content.get('retry_backoff', 0))
            deletes += [
                lambda: index.delete(idx.CLAIM_EXPIRY, idx.held_until(
                    held.expires, mid)),
                lambda: index.delete(idx.CLAIM_EXPIRY, legacy),
                lambda: index.unlock(mid, held)]
        parallel.together(*deletes)
        if ours is not None:
            index.unlock(mid, ours)
        history.record(self._client, queue, project, history.keeps(content),
                       mid, events.DELETED, claim=claim or '',
                       popped='1' if popped else '0')

    def _drop_claimed(self, queue, project, mid, claim):
        """Delete a message that a live lock of ``claim`` holds, knowing
        it by that lock alone; False when no such lock holds it. The
        message goes first, its lock after: its claim's entry gives back
        a message that is still there and names the claim, and passes
        over one that is gone."""
        index = self.index(queue, project)
        # A claim made on a queue with history reads the message too, to
        # know whether it keeps history (``history.HISTORY_CLAIM``).
        kept = claim.startswith(history.HISTORY_CLAIM)
        held, found = parallel.together(
            lambda: index.lock_of(mid),
            lambda: self.found(queue, mid, project)) if kept else (
                index.lock_of(mid), None)
        if (held is None or held.holder != claim
                or held.expires <= timeutils.utcnow_ts()):
            return False
        self._delete(queue, mid, project)
        index.unlock(mid, held)
        if found is not None:
            history.record(self._client, queue, project, history.keeps(
                jsonutils.loads(found[1])), mid, events.DELETED, claim=claim,
                popped='0')
        return True

    def _hold(self, queue, project, mid, now):
        """Take a message's lock for a delete without a claim: no claim
        can then take the message, read it and write it back after the
        delete. The Lock, or None when a live claim holds the message."""
        holder = idx.DELETING + uuidutils.generate_uuid()
        expires = now + DELETE_HOLD
        if self.index(queue, project).lock(mid, holder, expires, now):
            return locks.Lock(holder, expires)
        return None

    def delete(self, queue, message_id, project=None, claim=None):
        if not self._queue_ctrl.exists(queue, project):
            return
        if claim is not None and self._drop_claimed(queue, project,
                                                    message_id, claim):
            return
        read = self._read(queue, project, message_id)
        if read is None:
            return
        headers, msg, held = read
        now = timeutils.utcnow_ts()
        live = held if held is not None and held.expires > now else None
        ours = None
        if claim is None:
            if live is None:
                ours = self._hold(queue, project, message_id, now)
            if ours is None:
                raise errors.MessageIsClaimed(message_id)
        elif live is None or live.holder != claim:
            # A live claim, or ClaimDoesNotExist. (A live lock of the
            # claim shows it live: a lock ends with its claim.)
            stored.live_claim(self._client, queue, claim, project)
            if not live:
                raise errors.MessageNotClaimed(message_id)
            raise errors.MessageNotClaimedBy(message_id, claim)
        self._drop(queue, project, message_id, headers, msg, held, now, ours,
                   claim)

    def bulk_delete(self, queue, message_ids, project=None, claim_ids=None):
        self._bulk_delete(queue, message_ids, project, claim_ids)

    def _bulk_delete(self, queue, message_ids, project, claim_ids,
                     popped=False):
        found = [(mid,) + read for mid, read in zip(message_ids, parallel.each(
            lambda mid: self._read(queue, project, mid), message_ids))
            if read is not None]
        now = timeutils.utcnow_ts()
        if claim_ids:
            for mid, _, _, held in found:
                if held is None or held.expires <= now:
                    raise errors.MessageNotClaimed(mid)
                if held.holder not in claim_ids:
                    raise errors.ClaimDoesNotMatch(held.holder, queue,
                                                   project)

        def drop(mid, headers, msg, held):
            # Without claim ids, claimed messages go too (as upstream's);
            # one that no claim holds is held while it is deleted.
            ours = None
            if not claim_ids and (held is None or held.expires <= now):
                ours = self._hold(queue, project, mid, now)
            self._drop(queue, project, mid, headers, msg, held, now, ours,
                       held.holder if claim_ids else None, popped)

        parallel.each(lambda one: drop(*one), found)
