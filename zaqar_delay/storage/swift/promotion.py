"""Promotion: entries of a ``swift.delay`` queue that came due.

``due`` entries up to now make their messages ready; ``claim_expiry``
entries up to now give back what their expired claims still hold (see
``messages.MessageController`` for the layout). Claims, list pages and
stats promote first, a batch of each kind at a time. Promotion uses the
queue's index and message objects only: it calls no controller.
"""

import threading

from oslo_serialization import jsonutils

from zaqar_delay import delay
from zaqar_delay.history import events
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import stored
from zaqar_delay.storage.swift import upstream

# How many queues a process remembers having caught up on.
CAUGHT_UP_QUEUES = 10000


class Promotion:
    """The promotion of one driver's queues (the driver's ``promotion``).

    ``batch_size`` returns ``[delay] promote_batch_size``, read at each
    promotion.
    """

    def __init__(self, client, batch_size):
        self._client = client
        self._batch_size = batch_size
        self._promoting = set()     # queues a thread is promoting
        self._caught_up = {}        # queue: when it may need it again
        self._promoting_lock = threading.Lock()

    def promote(self, index, now):
        """Make ready what has come due by ``now`` (unix seconds, to the
        ms) and what expired claims held, at most ``promote_batch_size``
        of each; the two listings are read at once, and the entries
        moved ``parallel.WORKERS`` at a time. A queue that another
        thread of this process is promoting is left to it, and so is one
        whose promotion in this process found less than a batch of each,
        until the first ``due`` entry it listed in the rest of that
        second comes due, or the next second: every entry is written to
        come due after the second it is written in."""
        with self._promoting_lock:
            if (index.name in self._promoting
                    or self._caught_up.get(index.name, now) > now):
                return
            self._promoting.add(index.name)
        caught_up = None
        try:
            caught_up = self._batch(index, now)
        finally:
            with self._promoting_lock:
                self._promoting.discard(index.name)
                if caught_up is not None:
                    if len(self._caught_up) > CAUGHT_UP_QUEUES:
                        self._caught_up.clear()
                    self._caught_up[index.name] = caught_up

    def expect(self, index, due):
        """Note an entry of ``index`` written due at ``due`` (a due time
        asked may fall in the second it is written in): this process
        promotes the queue again by then."""
        with self._promoting_lock:
            if index.name in self._caught_up:
                self._caught_up[index.name] = min(
                    self._caught_up[index.name], due)

    def _batch(self, index, now):
        """Promote once: when it caught up, the time it may be needed
        again, else None. ``due`` is listed up to the next second, so
        that what comes due later in ``now``'s second is known."""
        second, batch = int(now), self._batch_size()
        listed, ended = parallel.together(
            lambda: index.names(idx.DUE, end_marker=idx.due_until(
                second + 1), limit=batch),
            lambda: index.names(idx.CLAIM_EXPIRY,
                                end_marker=idx.until(second), limit=batch))
        due_times = [idx.untimed(name).due for name in listed]
        due = [name for name, at in zip(listed, due_times) if at <= now]
        parallel.each(lambda name: self._come_due(index, name), due)
        parallel.each(lambda name: self._claim_ended(index, name, now),
                      ended)
        if len(listed) < batch and len(ended) < batch:
            return min([at for at in due_times if at > now] + [second + 1])
        return None

    @staticmethod
    def _come_due(index, name):
        entry = idx.untimed(name)
        # The ``due`` entry goes last: promotion finds the message by it.
        parallel.together(
            lambda: index.put(idx.READY, entry.message_id, entry.expires),
            lambda: index.delete(idx.WAITING, entry.message_id))
        index.delete(idx.DUE, name)

    def _claim_ended(self, index, name, now):
        """Give back what an expired claim's entry names and the claim
        still holds, then delete the entry."""
        claim = idx.claim_ended(name)
        if claim is not None:
            self._claim_entry_ended(index, name, now, claim)
        else:
            self._message_entry_ended(index, name, now)
        index.delete(idx.CLAIM_EXPIRY, name)

    @staticmethod
    def _give_back(index, mid, ended, holding, now, held):
        """Make a message whose claim ended ready, or waiting out its
        retry backoff (from ``ended``, the claim's expiry; ``holding``:
        ``index.Holding``); then delete its expired lock ``held``, if
        any."""
        due = delay.due_at(ended, holding.wait)
        expires = holding.expires
        if due > now:      # its retry backoff
            index.put(idx.DUE, idx.timed(due, expires, mid), expires)
            index.put(idx.WAITING, mid, expires)
        else:
            index.put(idx.READY, mid, expires)
        if held is not None:
            index.unlock(mid, held)

    def _claim_entry_ended(self, index, name, now, claim):
        """A claim's entry: give back each message it names that is still
        there (one listing of the message container over the entry's ids
        tells), names this claim or another that has ended, and whose
        lock has ended (deleted after) or is the hold of a delete, a
        reschedule or a move (left in place). Requests: the entry's
        read, that listing, and per message its GET, its lock's read (and
        a HEAD of another claim it names) and the give-back's writes.
        Why each case: ``doc/source/failures.rst``, "Orphan locks"."""
        ended, claim_id = claim
        content = index.read(idx.CLAIM_EXPIRY, name)
        held = content and idx.held_of(content)
        if not held:
            return
        queue, project = index.queue, index.project
        bound = 4 * len(held) + 100
        listed = []
        with responses.tolerating(responses.NOT_FOUND):
            listed = self._client.get_container(
                upstream.message_container(queue, project),
                marker=min(held)[:-1], end_marker=max(held) + '\x7f',
                limit=bound)[1]
        if len(listed) < bound:
            held = {obj['name']: held[obj['name']] for obj in listed
                    if obj['name'] in held}

        def one(mid):
            found = stored.found(self._client, queue, mid, project)
            named = found and jsonutils.loads(found[1]).get('claim_id')
            if named != claim_id and not self._ended(index, named, now):
                return
            lock = index.lock_of(mid)
            if lock is not None and lock.expires > now:
                if not index.on_hold(lock):
                    return
                lock = None
            self._give_back(index, mid, ended, held[mid], now, lock)
            # Once given back: a crash before loses this event.
            history.record(
                self._client, queue, project,
                history.keeps(jsonutils.loads(found[1])), mid,
                events.CLAIM_EXPIRED, ended, claim=claim_id,
                wait=str(held[mid].wait))
        parallel.each(one, held)

    def _ended(self, index, claim_id, now):
        """Whether a message that names ``claim_id`` (not the claim of the
        entry being read) names a claim that has ended: a claimer that
        took it once this claim ended wrote it back too late (its own
        entry had been read already). One HEAD of the claim object."""
        if not claim_id:
            return False
        with responses.tolerating(responses.NOT_FOUND):
            return int(self._client.head_object(
                upstream.claim_container(index.queue, index.project),
                claim_id)['x-delete-at']) <= now
        return True

    def _message_entry_ended(self, index, name, now):
        """An entry of one message (the earlier layouts)."""
        entry = idx.unheld(name)
        if entry is None:
            ended, expires, mid, wait = idx.legacy_held(name)
        else:
            (ended, mid), content = entry, index.read(idx.CLAIM_EXPIRY, name)
            if content is None:     # the message was deleted meanwhile
                return
            expires, wait = (int(x) for x in content.split())
        holding = idx.Holding(expires, wait)
        held = index.lock_of(mid)
        if held is not None and held.expires > now:
            if index.on_hold(held):     # as for a claim's entry
                self._give_back(index, mid, ended, holding, now, None)
            return
        # A delete with its claim no longer deletes this entry: a message
        # without a lock may be gone.
        if held is None and stored.found(self._client, index.queue, mid,
                                         index.project) is None:
            return
        self._give_back(index, mid, ended, holding, now, held)
