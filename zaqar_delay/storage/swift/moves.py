"""A move of messages from one ``swift.delay`` queue to another of the
project, each under a new id derived from its own (``idtime.derived``),
so that a repeat of a move that died part way finds the copy it made.

Per message: its object and lock read; its hold (``holds``, holder
``index.MOVING`` + the copy's id, so that a repeat holds it too); its
object read again; the copy written create-only (a repeat that finds it
makes its index entries again, unless a claim took it); the copy's
pending push and index entries; the original deleted; its entries and
pending push deleted at once; the hold ended; then the history
events. What a crash leaves: ``doc/source/swift.rst``, "Reschedules and
moves".
"""

from oslo_serialization import jsonutils

from zaqar_delay.history import events
from zaqar_delay.storage.swift import dedup
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import holds
from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import pushes
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import upstream

# The content keys a copy keeps of the original's.
KEPT = ('body', 'ttl', 'checksum')


def copy_id(message_id, headers, queue, project):
    """The id of the copy of ``message_id`` (of ``queue``) that a move
    makes: its posting time (from its id, else ``headers``) kept."""
    return idtime.derived(message_id,
                          idtime.created_at(message_id, headers),
                          queue, str(project))


class Move:
    """One move: ``controller`` (the message controller) moves messages
    from ``queue`` to ``target`` of ``project``, due at ``due``, at
    ``now`` (unix seconds, to the ms); ``keep`` is the target's history
    ttl."""

    def __init__(self, controller, queue, target, project, due, now, keep):
        self.ctrl, self.client = controller, controller._client
        self.queue, self.target, self.project = queue, target, project
        self.due, self.now, self.keep = due, now, keep
        self.index = controller.index(queue, project)
        self.into = controller.index(target, project)

    def of(self, ids):
        """Move the messages ``ids`` that are there and that no live lock
        (but a hold of this same move) holds; [(old id, new id)] of
        those moved, in the order of ``ids``. 11 requests a message
        moved and five a shard (one more a history event, two more with
        pending pushes)."""
        reads = parallel.each(
            lambda mid: self.ctrl._read(self.queue, self.project, mid), ids)
        copies = {}
        for mid, read in zip(ids, reads):
            if read is None:
                continue
            headers, _, held = read
            new_id = copy_id(mid, headers, self.queue, self.project)
            if (held is None or held.expires <= self.now
                    or held.holder == idx.MOVING + new_id):
                copies[mid] = new_id
        held = holds.hold(self.index, {
            mid: idx.MOVING + new_id for mid, new_id in copies.items()},
            self.now, self.ctrl.driver.now)
        moving = [mid for mid in copies if held[mid]]
        moved = parallel.each(
            lambda mid: self._one(mid, copies[mid], held[mid]), moving)
        return [pair for pair in moved if pair]

    def _one(self, mid, new_id, ours):
        """Move one message held by ``ours``: (its id, its copy's), or
        None when it is gone."""
        try:
            # Read again once held: a claim may have taken the message
            # (and deleted it) since the first read.
            found = self.ctrl.found(self.queue, mid, self.project)
            if found is None:
                return None
            headers, body = found
            content = jsonutils.loads(body)
            expires = int(headers['x-delete-at'])
            made = self._copy(new_id, content, expires, headers.get(
                'x-object-meta-clientid', ''))
            self.ctrl.delete_object(self.queue, mid, self.project)
            old_due = content.get('delay_expires', 0)
            calls = [lambda kind=kind, name=name: self.index.delete(
                kind, name) for kind, name in [
                    (idx.READY, mid), (idx.WAITING, mid)] + [
                    (idx.DUE, name) for name in idx.due_names(
                        old_due, expires, mid)]]
            if self.ctrl.driver.pushes:
                calls.append(lambda: pushes.drop(
                    self.client, mid, self.queue, self.project, old_due,
                    expires))
            parallel.together(*calls)
        finally:
            self.index.unlock(mid, ours)
        history.record(self.client, self.queue, self.project,
                       history.keeps(content), mid, history.MOVED,
                       self.now, to=self.target, **{'as': new_id})
        if made:
            history.record(
                self.client, self.target, self.project, self.keep, new_id,
                events.POSTED, self.now, ttl=str(content['ttl']), delay='',
                due='%.3f' % self.due, dedup='', body=content.get('body'),
                **{'from': mid})
        return mid, new_id

    def _copy(self, new_id, content, expires, client_id):
        """Write the copy, create-only, then its pending push and its
        index entries; True if it made it. A copy that is there already
        (a repeat) gets its entries again (``dedup.findable``)."""
        copy = {key: content[key] for key in KEPT if key in content}
        copy.update(claim_id=None, claim_count=0, delay_expires=self.due)
        copy.setdefault('body', {})
        if self.keep:
            copy[history.KEY] = self.keep
        made = False
        with responses.tolerating(responses.PRECONDITION_FAILED):
            objects.put(
                self.client,
                upstream.message_container(self.target, self.project),
                new_id, jsonutils.dumps(copy), expires,
                content_type='application/json',
                headers={'x-object-meta-clientid': client_id,
                         'If-None-Match': '*'})
            made = True
        if not made:
            there = self.ctrl.found(self.target, new_id, self.project)
            if there is not None:
                dedup.findable(self.into, new_id, there, self.now)
                self._push_again(new_id, there)
            return False
        if self.ctrl.driver.pushes:
            # A crash before this: the repeat records it (_push_again).
            pushes.record(self.client, self.due, expires, new_id,
                          self.target, self.project)
        if self.due > self.now:
            self.into.put(idx.DUE, idx.timed(self.due, expires, new_id),
                          expires)
            self.into.put(idx.WAITING, new_id, expires)
            self.ctrl._promotion.expect(self.into, self.due)
        else:
            self.into.put(idx.READY, new_id, expires)
        return True

    def _push_again(self, new_id, found):
        """The pending push of a copy a first try wrote (``found``:
        headers, body), as that try would have recorded it: its entry is
        named by the due time, expiry and message, so writing it again
        changes nothing when it is there. Pushes are at least once: a
        dispatcher that pushed it already pushes it again."""
        if not self.ctrl.driver.pushes:
            return
        headers, body = found
        pushes.record(self.client,
                      jsonutils.loads(body).get('delay_expires') or 0,
                      int(headers['x-delete-at']), new_id, self.target,
                      self.project)
