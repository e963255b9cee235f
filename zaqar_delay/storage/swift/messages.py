"""Message operations of the ``swift.delay`` driver."""

from oslo_serialization import jsonutils
from oslo_utils import timeutils
from zaqar import storage
from zaqar.storage import errors
from zaqar.storage.swift import messages as upstream_messages
from zaqar.storage import utils as s_utils

from zaqar_delay.storage import common
from zaqar_delay.storage.swift import dedup
from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import pushes
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import upstream


def basic(message_id, body, headers, now):
    """The message as Zaqar returns it (upstream's, with the checksum).

    Its age counts from the posting time held in its id: the object's
    timestamp moves when a claim or a dead-lettering rewrites it, and
    Zaqar's whole-second clock can fall behind it.
    """
    message = upstream.message_to_json(message_id, body, headers, now)
    message['age'] = max(0, now - idtime.created_at(message_id, headers))
    checksum = jsonutils.loads(body).get('checksum')
    if checksum:
        message['checksum'] = checksum
    return message


class MessageController(upstream_messages.MessageController):
    """Messages of a delayed queue, with index containers beside them.

    A message is upstream's object (container
    ``zaqar_message:<queue>:<project>``, content ``body claim_id ttl
    claim_count delay_expires``, ``X-Object-Meta-ClientID``,
    ``X-Delete-At`` its expiry), named by an id that sorts by posting time,
    so ``swift`` can read the store. Each queue also has these containers
    of zero-byte entries (``zaqar_delay_<kind>:<queue>:<project>``), each
    entry expiring with its message:

    ================  ============================  ======================
    Kind              Entry name                    Holds
    ================  ============================  ======================
    ``ready``         ``<id>``                      due and not claimed
    ``waiting``       ``<id>``                      not due yet
    ``due``           ``<due>.<expires>.<id>``      not due yet
    ``claimed``       ``<id>``                      held by a claim
    ``claim_expiry``  ``<claim exp>.<exp>.<id>``    held by a claim
    ``lock``          ``<id>`` (content: claim id)  held; expires with it
    ``dedup``         ``<digest>`` (content: id)    holds a dedup value,
                                                    until its window ends
    ================  ============================  ======================

    A claim lists ``ready`` (O(limit) names) and takes each message with a
    create-only write of its ``lock`` (``If-None-Match: *``), which Swift
    refuses while another claim's lock lives; only then does it move the
    message's entries. List pages read ``ready`` (and ``claimed`` or
    ``waiting`` when asked, merged by id) after the marker. ``due`` and
    ``claim_expiry`` entries up to now are moved back to ``ready`` first,
    at most ``[delay] promote_batch_size`` each per call.

    With zaqar-delay's notifier stage in the message pipeline, a delayed
    post first writes the message's pending push in the store's
    ``zaqar_delay_pushes`` container (``pushes``).
    """

    def _index(self, queue, project):
        return idx.Index(self._client, queue, project)

    def _promote(self, index, now):
        batch = self.driver.delay_conf.promote_batch_size
        for name in index.names(idx.DUE, end_marker=idx.until(now),
                                limit=batch):
            _, expires, mid = idx.untimed(name)
            index.put(idx.READY, mid, expires)
            index.delete(idx.WAITING, mid)
            index.delete(idx.DUE, name)
        for name in index.names(idx.CLAIM_EXPIRY, end_marker=idx.until(now),
                                limit=batch):
            ended, expires, mid, wait = idx.unheld(name)
            if index.holder(mid, now) is None:
                if ended + wait > now:      # its retry backoff
                    index.put(idx.WAITING, mid, expires)
                    index.put(idx.DUE, idx.timed(ended + wait, expires, mid),
                              expires)
                else:
                    index.put(idx.READY, mid, expires)
                index.delete(idx.CLAIMED, mid)
            index.delete(idx.CLAIM_EXPIRY, name)

    def post(self, queue, messages, client_uuid, project=None):
        messages = list(messages)
        delays, dedups = common.post_terms(self.driver, self._queue_ctrl,
                                           queue, project, messages)
        index = self._index(queue, project)
        now = timeutils.utcnow_ts()
        ids = []
        for msg, delay, found in zip(messages, delays, dedups):
            mid = idtime.new()
            expires = now + msg['ttl']
            content = {'body': msg.get('body', {}), 'claim_id': None,
                       'ttl': msg['ttl'], 'claim_count': 0,
                       'delay_expires': now + delay}
            if self.driver.conf.enable_checksum:
                content['checksum'] = s_utils.get_checksum(
                    msg.get('body', None))
            if (delay or found) and self.driver.pushes:
                # Before the message: a crash between the two leaves a
                # push of nothing, which a dispatcher drops.
                pushes.record(self._client, now + delay, expires, mid, queue,
                              project)
            objects.put(
                self._client, upstream.message_container(queue, project), mid,
                jsonutils.dumps(content), expires,
                content_type='application/json',
                headers={'x-object-meta-clientid': str(client_uuid)})
            if found:
                held = dedup.hold(self._client, queue, project, found, mid,
                                  now, lambda m: self._live(queue, m,
                                                            project))
                if held != mid:     # a live message answers for it
                    self._delete(queue, mid, project)
                    ids.append(held)
                    continue
            if delay:
                # ``due`` first: promotion finds a message through it; a
                # ``waiting`` entry without it would count as delayed and
                # never come due.
                index.put(idx.DUE, idx.timed(now + delay, expires, mid),
                          expires)
                index.put(idx.WAITING, mid, expires)
            else:
                index.put(idx.READY, mid, expires)
            ids.append(mid)
        return ids

    def _live(self, queue, message_id, project):
        try:
            self._find_message(queue, message_id, project)
            return True
        except errors.MessageDoesNotExist:
            return False

    def _candidates(self, index, kinds, marker, want):
        names = []
        for kind in kinds:
            names.extend(index.names(kind, marker=marker, limit=want))
        return sorted(names)[:want]

    def list(self, queue, project=None, marker=None,
             limit=storage.DEFAULT_MESSAGES_PER_PAGE, echo=False,
             client_uuid=None, include_claimed=False, include_delayed=False):
        if not self._queue_ctrl.exists(queue, project):
            raise errors.QueueDoesNotExist(queue, project)
        index = self._index(queue, project)
        now = timeutils.utcnow_ts()
        self._promote(index, now)
        kinds = [idx.READY]
        if include_claimed:
            kinds.append(idx.CLAIMED)
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
                    page.append(basic(mid, msg, headers, now))
        return iter((iter(page), marker if page or examined else None))

    def _get(self, queue, message_id, project=None, check_queue=True):
        if check_queue and not self._queue_ctrl.exists(queue, project):
            raise errors.QueueDoesNotExist(queue, project)
        headers, msg = self._find_message(queue, message_id, project)
        return basic(message_id, msg, headers, timeutils.utcnow_ts(True))

    def pop(self, queue, limit, project=None):
        return common.pop(self, queue, limit, project)

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

    def _drop(self, queue, project, mid, headers, msg):
        """Delete a message object and every index entry of it."""
        index = self._index(queue, project)
        expires = int(headers['x-delete-at'])
        due = jsonutils.loads(msg).get('delay_expires', 0)
        held = index.lock_of(mid)
        self._delete(queue, mid, project)
        for kind in (idx.READY, idx.WAITING, idx.CLAIMED):
            index.delete(kind, mid)
        index.delete(idx.DUE, idx.timed(due, expires, mid))
        if held:
            index.delete(idx.CLAIM_EXPIRY, idx.held_until(
                held.expires, expires, mid,
                jsonutils.loads(msg).get('retry_backoff', 0)))
            index.delete(idx.LOCK, mid)

    def delete(self, queue, message_id, project=None, claim=None):
        if not self._queue_ctrl.exists(queue, project):
            return
        try:
            headers, msg = self._find_message(queue, message_id, project)
        except errors.MessageDoesNotExist:
            return
        held = self._index(queue, project).holder(message_id,
                                                  timeutils.utcnow_ts())
        if claim is None:
            if held:
                raise errors.MessageIsClaimed(message_id)
        else:
            # A live claim, or ClaimDoesNotExist.
            self.driver.claim_controller._claim(queue, claim, project)
            if not held:
                raise errors.MessageNotClaimed(message_id)
            if held.holder != claim:
                raise errors.MessageNotClaimedBy(message_id, claim)
        self._drop(queue, project, message_id, headers, msg)

    def bulk_delete(self, queue, message_ids, project=None, claim_ids=None):
        found = []
        for mid in message_ids:
            try:
                headers, msg = self._find_message(queue, mid, project)
            except errors.MessageDoesNotExist:
                continue
            if claim_ids:
                held = self._index(queue, project).holder(
                    mid, timeutils.utcnow_ts())
                if not held:
                    raise errors.MessageNotClaimed(mid)
                if held.holder not in claim_ids:
                    raise errors.ClaimDoesNotMatch(held.holder, queue,
                                                   project)
            found.append((mid, headers, msg))
        for mid, headers, msg in found:
            self._drop(queue, project, mid, headers, msg)
