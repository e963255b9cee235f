"""Message operations of the ``swift.delay`` driver."""

import time

from oslo_serialization import jsonutils
from oslo_utils import timeutils
from oslo_utils import uuidutils
from zaqar import storage
from zaqar.storage import errors
from zaqar.storage.swift import messages as upstream_messages
from zaqar.storage import utils as s_utils

from zaqar_delay import delay as due_times
from zaqar_delay.history import events
from zaqar_delay.storage import boundary
from zaqar_delay.storage import common
from zaqar_delay.storage.swift import dedup
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import promotion
from zaqar_delay.storage.swift import pushes
from zaqar_delay.storage.swift import records
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import steering
from zaqar_delay.storage.swift import upstream

# How long a delete without a claim holds a message's lock (seconds): a
# crash between taking it and deleting the message hides the message for
# no longer than this (promotion gives back a claimed one under it).
DELETE_HOLD = 60


class MessageController(steering.Steering,
                        upstream_messages.MessageController):
    """Messages of a delayed queue, with index containers beside them.

    A message is upstream's object (container
    ``zaqar_message:<queue>:<project>``, content ``body claim_id ttl
    claim_count delay_expires`` (and ``rescheduled``: ``records``),
    ``X-Object-Meta-ClientID``,
    ``X-Delete-At`` its expiry), named by an id that sorts by posting time,
    so ``swift`` can read the store. Each queue also has these containers
    of entries (``zaqar_delay_<kind>:<queue>:<project>``), each expiring
    with its message (``delay_expires`` and ``<due ms>``: the due time to
    the ms, ``doc/source/swift.rst``, "Due times"):

    ================  ===========================  =======================
    Kind              Entry name (content)         Holds
    ================  ===========================  =======================
    ``ready``         ``<id>``                     due and not claimed
    ``waiting``       ``<id>``                     not due yet
    ``due``           ``<due ms>.<expires>.<id>``  not due yet
    ``claim_expiry``  ``<claim exp>-<claim id>``   held by a claim
                      (JSON ``{<id>: [<expires>,
                      <backoff>]}``)
    ``lock``          ``<id>`` (the claim id)      held; expires with the
                                                   claim; counts as claimed
    ``dedup``         ``<digest>`` (the id)        holds a dedup value,
                                                   until its window ends
    ``lease``         ``<shard>`` (``?`` + taker)  a taker of the locks of
                                                   the shard's messages;
                                                   six seconds at most
    ================  ===========================  =======================

    A ``dedup`` or ``lease`` entry being taken is a door (``locks``):
    its content the taker's name after ``?``, ending six seconds on; a
    ``lease`` entry is deleted by its taker once used. Beside those two
    containers, ``zaqar_delay_bid:<their container>`` holds the takers'
    bids (same name, content the taker; deleted by the taker, else
    ending with its door). A message's shard is
    ``index.shard``'s: ``t`` and the second it was posted in, or ``h``
    and a hash for ids of other layouts. Entries of the earlier layouts
    (``claimed``; ``claim_expiry`` entries of one message, named
    ``<claim exp>.<id>``, content ``<expires> <backoff>``, which
    ``migrate`` still writes, or ``<claim exp>.<expires>.<id>
    [.<backoff>]``) are still read and deleted. With zaqar-delay's
    notifier stage, a post also writes the message's pending push
    (``pushes``).

    What each operation reads and writes, and its cost in requests:
    ``doc/source/swift.rst``; the order of its requests, and what a
    crash between two of them leaves: ``doc/source/failures.rst``.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._promotion = promotion.Promotion(
            self._client,
            lambda: self.driver.delay_conf.promote_batch_size)

    # The queue helpers of swift.delay's other modules (claims, stages,
    # deadletter): all they use of this controller.

    def index(self, queue, project=None):
        """The queue's index containers (``index.Index``); no request."""
        return idx.Index(self._client, queue, project)

    def ready_view(self, queue, project=None):
        """Make ready what came due and what ended claims held, then
        return (the queue's ``index.Index``, now by the driver's clock in
        whole seconds, read before promoting). Promotion
        (``promotion.Promotion.promote``) lists ``due`` and
        ``claim_expiry`` at once (two requests), judged by
        ``driver.now_ms()``, and moves at most ``[delay]
        promote_batch_size`` entries of each; it makes no request when
        another thread of this process is promoting the queue, or when
        this process caught up on it and nothing it listed has come due
        since."""
        index = self.index(queue, project)
        now = self.driver.now_ms()
        self._promotion.promote(index, now)
        return index, int(now)

    def found(self, queue, message_id, project=None):
        """(headers, body) of a message object, its body the JSON
        content as bytes; None when there is no such object. One GET."""
        try:
            return self._find_message(queue, message_id, project)
        except errors.MessageDoesNotExist:
            return None

    def delete_object(self, queue, message_id, project=None):
        """Delete a message's object alone (one DELETE; gone already is
        fine): its index entries and its lock stay, for the caller to
        delete, or to end with the message's expiry."""
        self._delete(queue, message_id, project)

    @boundary.refusing
    def post(self, queue, messages, client_uuid, project=None,
             metadata=None):
        messages = list(messages)
        delays, dedups, keep = common.post_plan(
            self.driver, self._queue_ctrl, queue, project, messages,
            metadata)
        # Ids first, in order (they sort by posting time); then each
        # message's writes, several messages at once.
        posting = [(idtime.new(), msg, delay, found)
                   for msg, delay, found in zip(messages, delays, dedups)]
        return parallel.each(
            lambda one: self.post_one(queue, project, client_uuid, one[1],
                                      one[2], one[3], keep, one[0]),
            posting)

    def post_one(self, queue, project, client_uuid, msg, delay, found, keep,
                 mid):
        """Write message ``mid`` (checked ``delay``, ``dedup.Dedup`` or
        None, history ttl ``keep``) and its entries, then its ``posted``
        event when ``keep``; the id that answers it. A message with a
        due time (``delay.DUE``) is due then exactly (to the ms, up)."""
        index = self.index(queue, project)
        stamp, clock = time.time(), self.driver.clock()
        (delay,) = due_times.waits_from([msg], [delay],
                                        due_times.due_at(clock, 0))
        now, due = int(clock), due_times.due_at(clock, delay)
        expires = now + msg['ttl']
        content = {'body': msg.get('body', {}), 'claim_id': None,
                   'ttl': msg['ttl'], 'claim_count': 0,
                   'delay_expires': due}
        if keep:
            content[history.KEY] = keep
        if self.driver.conf.enable_checksum:
            content['checksum'] = s_utils.get_checksum(msg.get('body', None))
        if self.driver.pushes and not found:
            # Before the message: a crash between the two leaves a push
            # of nothing, which a dispatcher drops.
            pushes.record(self._client, due, expires, mid, queue, project)
        objects.put(
            self._client, upstream.message_container(queue, project), mid,
            jsonutils.dumps(content), expires,
            content_type='application/json',
            headers={'x-object-meta-clientid': str(client_uuid)})
        if found:
            held, holder = dedup.hold(
                self._client, queue, project, found, mid, now,
                lambda m: self.found(queue, m, project),
                lambda: self._delete(queue, mid, project))
            if held != mid:     # a live message answers for it, findable
                parallel.together(
                    lambda: self._delete(queue, mid, project),
                    lambda: dedup.findable(index, held, holder,
                                           self.driver.now_ms()))
                return held
            if self.driver.pushes:
                # Only once the post owns its dedup key: a duplicate is
                # never pushed. A crash just before loses this push.
                pushes.record(self._client, due, expires, mid, queue,
                              project)
        if delay:
            # ``due`` first: promotion finds a message through it; a
            # ``waiting`` entry without it would count as delayed and
            # never come due.
            index.put(idx.DUE, idx.timed(due, expires, mid), expires)
            index.put(idx.WAITING, mid, expires)
            self._promotion.expect(index, due)
        else:
            index.put(idx.READY, mid, expires)
        # Once the message is findable: a crash before loses this event.
        history.record(self._client, queue, project, keep, mid,
                       events.POSTED, now, stamp, ttl=str(msg['ttl']),
                       delay=str(delay), due=str(due),
                       dedup=found.digest if found else '',
                       body=content['body'])
        return mid

    def _candidates(self, index, kinds, marker, want):
        # A message can have a ready entry and a lock (one that ended,
        # or one being taken) at once.
        names = set()
        for kind in kinds:
            names.update(index.names(kind, marker=marker, limit=want))
        return sorted(names)[:want]

    def list(self, queue, project=None, marker=None,
             limit=storage.DEFAULT_MESSAGES_PER_PAGE, echo=False,
             client_uuid=None, include_claimed=False, include_delayed=False):
        if not self._queue_ctrl.exists(queue, project):
            raise errors.QueueDoesNotExist(queue, project)
        index, now = self.ready_view(queue, project)
        kinds = [idx.READY]
        if include_claimed:
            kinds.append(idx.LOCK)
        if include_delayed:
            kinds.append(idx.WAITING)

        page, examined = [], 0
        bound = limit + self.driver.delay_conf.promote_batch_size
        while len(page) < limit and examined < bound:
            found = self._candidates(index, kinds, marker, limit - len(page))
            if not found:
                break
            for mid in found:
                examined += 1
                marker = mid
                try:
                    headers, msg = self._find_message(queue, mid, project)
                except errors.MessageDoesNotExist:
                    continue
                if echo or headers.get(
                        'x-object-meta-clientid') != str(client_uuid):
                    page.append(records.basic(mid, msg, headers, now))
        return iter((iter(page), marker if page or examined else None))

    def _get(self, queue, message_id, project=None, check_queue=True):
        if check_queue and not self._queue_ctrl.exists(queue, project):
            raise errors.QueueDoesNotExist(queue, project)
        headers, msg = self._find_message(queue, message_id, project)
        return records.basic(message_id, msg, headers,
                             timeutils.utcnow_ts(True))

    def pop(self, queue, limit, project=None):
        return common.pop(
            self, queue, limit, project,
            lambda queue, ids, project, claim: self._bulk_delete(
                queue, ids, project, [claim], popped=True))

    def first(self, queue, project=None, sort=1):
        if sort not in (1, -1):
            raise ValueError('sort must be either 1 (ascending) '
                             'or -1 (descending)')
        objects = []
        with responses.tolerating(responses.NOT_FOUND):
            _, objects = self._client.get_container(
                upstream.message_container(queue, project), limit=1,
                query_string='reverse=on' if sort == -1 else None)
        for obj in objects:
            return self._get(queue, obj['name'], project, check_queue=False)
        raise errors.QueueIsEmpty(queue, project)

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

    def _read(self, queue, project, mid):
        """(headers, content, Lock or None) of a message, read at once;
        None if there is no such message."""
        found, held = parallel.together(
            lambda: self.found(queue, mid, project),
            lambda: self.index(queue, project).lock_of(mid))
        return None if found is None else found + (held,)

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
            self.driver.claim_controller.live(queue, claim, project)
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
