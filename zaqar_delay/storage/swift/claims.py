"""Claim operations of the ``swift.delay`` driver."""

import collections

from oslo_serialization import jsonutils
from oslo_utils import timeutils
from zaqar import storage
from zaqar.storage import errors
from zaqar.storage.swift import claims as upstream_claims

from zaqar_delay import delay
from zaqar_delay.history import events
from zaqar_delay import retry
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import records
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import stored
from zaqar_delay.storage.swift import taker
from zaqar_delay.storage.swift import upstream

# How far Swift's clock (which ends a lock) may be ahead of the
# driver's, in seconds (``ClaimController.delete``).
CLOCKS_APART = 1

# A message a claim holds (``ClaimController._held``): its id, its
# ``locks.Lock``, and its object's headers and body.
Held = collections.namedtuple('Held', 'mid lock headers body')


def backoff_of(body):
    """The retry backoff a claimed message's body keeps (0: none)."""
    return jsonutils.loads(body).get('retry_backoff', 0)


class ClaimController(upstream_claims.ClaimController):
    """Claims that take a message only through its lock.

    The claim object is upstream's (``zaqar_claim:<queue>:<project>``,
    the JSON list of its message ids, ``X-Delete-At`` its expiry), and
    claimed messages carry the claim id, as upstream writes them. A
    message is taken through its ``lock`` entry (``taker``); one
    ``claim_expiry`` entry per claim gives back, once the claim ends,
    what it still holds (``promotion``). The helpers this calls call no
    controller: doc/source/swift.rst, "Controllers and helpers".
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._taker = taker.Taker(self.driver)

    def create(self, queue, metadata, project=None,
               limit=storage.DEFAULT_MESSAGES_PER_CLAIM):
        try:
            meta = self._queue_ctrl.get_metadata(queue, project=project)
        except errors.QueueDoesNotExist:
            return None, []
        index = idx.Index(self._client, queue, project)
        now = self.driver.now_ms()
        self.driver.promotion.promote(index, now)
        now = int(now)
        taking = taker.Taking(
            queue, project, index,
            history.claim_id(meta, self.driver.delay_conf),
            now + metadata['ttl'], metadata['grace'], meta, now,
            retry.of_queue(meta, self.driver.max_delay))
        taken = self._taker.take(taking, limit)
        if not taken:
            return None, []
        self._write_claimed(taking, taken)
        self._publish(taking, taken, metadata['ttl'])
        return taking.claim_id, [one.message for one in taken]

    def _write_claimed(self, taking, taken):
        """Write the claim's expiry entry and its messages, claimed, at
        once."""
        parallel.together(
            lambda: taking.index.put(
                idx.CLAIM_EXPIRY, idx.claim_ends(taking.expires,
                                                 taking.claim_id),
                max(one.expires for one in taken),
                idx.holdings({one.message['id']: idx.Holding(
                    one.expires, one.wait) for one in taken})),
            lambda: parallel.each(
                lambda one: self._taker.write(taking, one), taken))

    def _publish(self, taking, taken, ttl):
        """Write the claim object and delete the messages' ready entries,
        at once, once the claim's entry is written: a crash before leaves
        a message ready once its lock ends, after it the entry gives it
        back. Ready entries go only while the claim surely lasts (one
        deleted after promotion gave the message back would hide it);
        else they are written again."""
        ids = [one.message['id'] for one in taken]
        lasts = locks.lasting(ttl, taking.expires)

        def unready():
            if lasts():
                parallel.each(
                    lambda mid: taking.index.delete(idx.READY, mid), ids)

        parallel.together(
            lambda: objects.put(
                self._client, upstream.claim_container(taking.queue,
                                                       taking.project),
                taking.claim_id, jsonutils.dumps(ids), taking.expires,
                content_type='application/json',
                headers={'x-object-meta-ttl': str(ttl)}),
            unready)
        if not lasts():
            parallel.each(lambda one: taking.index.put(
                idx.READY, one.message['id'], one.expires), taken)

    def live(self, queue, claim_id, project=None):
        """``stored.live_claim`` of this queue's claim ``claim_id``."""
        return stored.live_claim(self._client, queue, claim_id, project)

    def get(self, queue, claim_id, project=None):
        expires, ttl, ids = self.live(queue, claim_id, project)
        now = timeutils.utcnow_ts(True)

        def found():
            for mid in ids:
                one = stored.found(self._client, queue, mid, project)
                if one is not None:
                    headers, body = one
                    yield records.basic(mid, body, headers,
                                        timeutils.utcnow_ts(True))

        return {'id': claim_id, 'ttl': ttl,
                'age': int(now - (expires - ttl))}, found()

    def _held(self, queue, project, index, claim_id, ids, now):
        """Yield the ``Held`` of each message the claim holds."""
        for mid in ids:
            held = index.holder(mid, now)
            if not held or held.holder != claim_id:
                continue
            found = stored.found(self._client, queue, mid, project)
            if found is not None:
                yield Held(mid, held, *found)

    def update(self, queue, claim_id, metadata, project=None):
        if not self._queue_ctrl.exists(queue, project):
            raise errors.QueueDoesNotExist(queue, project)
        old, _, ids = self.live(queue, claim_id, project)
        index = idx.Index(self._client, queue, project)
        now = timeutils.utcnow_ts()
        expires = now + metadata['ttl']
        held = list(self._held(queue, project, index, claim_id, ids, now))
        moved = {one.mid: idx.Holding(
            max(int(one.headers['x-delete-at']), expires + metadata['grace']),
            backoff_of(one.body)) for one in held}
        if moved:
            # The claim's new expiry entry before any lock moves: a crash
            # between the two leaves a lock to end at the old time, when
            # the old entry gives the message back; never a lock that
            # outlives every entry (hidden until the message's ttl).
            index.put(idx.CLAIM_EXPIRY, idx.claim_ends(expires, claim_id),
                      max(one.expires for one in moved.values()),
                      idx.holdings(moved))
        for one in held:
            mid, msg_expires = one.mid, int(one.headers['x-delete-at'])
            # A message or lock gone meanwhile (the claim ended, and the
            # message was deleted or its lock ended): not moved.
            with responses.tolerating(responses.NOT_FOUND):
                if moved[mid].expires != msg_expires:
                    objects.expire(
                        self._client,
                        upstream.message_container(queue, project), mid,
                        moved[mid].expires, {
                            'x-object-meta-clientid': one.headers.get(
                                'x-object-meta-clientid', '')})
                index.expire(idx.LOCK, mid, expires)
                # Our claim ended before the POST and another took the
                # message: its lock got our expiry, and has its own back.
                if self._still_held(queue, project, index, mid, claim_id):
                    self._forget(index, one.lock, mid, msg_expires,
                                 moved[mid].wait)
        if old != expires:
            index.delete(idx.CLAIM_EXPIRY, idx.claim_ends(old, claim_id))
        with responses.tolerating(responses.NOT_FOUND):
            return objects.expire(
                self._client, upstream.claim_container(queue, project),
                claim_id, expires, {'x-object-meta-ttl': str(metadata['ttl'])})
        raise errors.ClaimDoesNotExist(claim_id, queue, project)

    @staticmethod
    def _forget(index, held, mid, expires, wait):
        """Delete the entries of one message that claims wrote before
        they wrote one entry a claim: named by the message's lock as
        ``held``, and the earlier one that named the message's expiry and
        retry backoff. A claim given back or moved leaves none that could
        give the message back at its old time."""
        parallel.together(
            lambda: index.delete(idx.CLAIM_EXPIRY, idx.legacy_held_until(
                held.expires, expires, mid, wait)),
            lambda: index.delete(idx.CLAIM_EXPIRY, idx.held_until(
                held.expires, mid)))

    def _still_held(self, queue, project, index, mid, claim_id):
        """After a lock's expiry was moved (a POST, which Swift cannot make
        conditional): True if ``claim_id`` still holds it; else the
        holder's lock is given its own claim's expiry back."""
        held = index.lock_of(mid)
        if held is None or held.holder == claim_id:
            return held is not None
        with responses.tolerating(responses.NOT_FOUND):
            expires = int(self._client.head_object(
                upstream.claim_container(queue, project),
                held.holder)['x-delete-at'])
            index.expire(idx.LOCK, mid, expires)
        return False

    def delete(self, queue, claim_id, project=None):
        try:
            expires, _, ids = self.live(queue, claim_id, project)
        except errors.ClaimDoesNotExist:
            return
        index = idx.Index(self._client, queue, project)
        clock = self.driver.clock()
        now = int(clock)
        for mid, held, headers, body in self._held(queue, project, index,
                                                   claim_id, ids, now):
            msg = jsonutils.loads(body)
            msg['claim_id'] = None
            wait = msg.pop('retry_backoff', 0)
            if wait:
                msg['delay_expires'] = delay.due_at(clock, wait)
            msg_expires = int(headers['x-delete-at'])
            # Its entries before the message drops the claim id: until
            # then, the claim's expiry entry gives it back; the live lock
            # keeps other claims off it until it goes, last.
            if wait:
                index.put(idx.WAITING, mid, msg_expires)
                index.put(idx.DUE, idx.timed(msg['delay_expires'],
                                             msg_expires, mid), msg_expires)
            else:
                index.put(idx.READY, mid, msg_expires)
            objects.put(
                self._client, upstream.message_container(queue, project), mid,
                jsonutils.dumps(msg), msg_expires,
                content_type='application/json',
                headers={'x-object-meta-clientid':
                         headers.get('x-object-meta-clientid', '')})
            self._forget(index, held, mid, msg_expires, wait)
            index.unlock(mid, held)
            history.record(self._client, queue, project, history.keeps(msg),
                           mid, events.RELEASED, now, claim=claim_id,
                           wait=str(wait))
        # A claim that ended while it was released may hold messages
        # whose locks ended before they were read (passed over above):
        # its entry stays, for promotion to give them back.
        if self.driver.clock() + CLOCKS_APART < expires:
            index.delete(idx.CLAIM_EXPIRY, idx.claim_ends(expires, claim_id))
        with responses.tolerating(responses.NOT_FOUND):
            self._client.delete_object(
                upstream.claim_container(queue, project), claim_id)
