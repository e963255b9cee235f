"""Message operations of the ``swift.delay`` driver."""

import collections
import time

from oslo_serialization import jsonutils
from oslo_utils import timeutils
from zaqar import storage
from zaqar.storage import errors
from zaqar.storage.swift import messages as upstream_messages
from zaqar.storage import utils as s_utils

from zaqar_delay import delay as due_times
from zaqar_delay.history import events
from zaqar_delay.storage import boundary
from zaqar_delay.storage import common
from zaqar_delay.storage.swift import dedup
from zaqar_delay.storage.swift import deletes
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import pushes
from zaqar_delay.storage.swift import records
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import steering
from zaqar_delay.storage.swift import stored
from zaqar_delay.storage.swift import upstream

# A message read with its lock (``MessageController._read``): its
# object's headers and body, and its ``locks.Lock`` or None.
Read = collections.namedtuple('Read', 'headers body lock')


class MessageController(steering.Steering, deletes.Deletes,
                        upstream_messages.MessageController):
    """Messages of a delayed queue, with index containers beside them.

    A message is upstream's object, so ``swift`` can read the store; its
    state lives in entries of the queue's ``zaqar_delay_<kind>`` containers
    (``ready``, ``waiting``, ``due``, ``claim_expiry``, ``lock``,
    ``dedup``, ``lease``), each expiring with its message. The containers
    and entries: doc/source/swift.rst, "Containers"; each operation's
    requests and cost: the same page; what a crash between two requests
    leaves: doc/source/failures.rst.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._promotion = self.driver.promotion

    # The queue helpers of swift.delay's other modules (claims, deletes,
    # stages, deadletter): all they use of this controller.

    def index(self, queue, project=None):
        """The queue's index containers (``index.Index``); no request."""
        return idx.Index(self._client, queue, project)

    def ready_view(self, queue, project=None):
        """Make ready what came due and what ended claims held
        (``promotion.Promotion.promote``, judged by ``driver.now_ms()``),
        then return (the queue's ``index.Index``, now by the driver's
        clock in whole seconds, read before promoting)."""
        index = self.index(queue, project)
        now = self.driver.now_ms()
        self._promotion.promote(index, now)
        return index, int(now)

    def found(self, queue, message_id, project=None):
        """(headers, body) of a message object, its body the JSON
        content as bytes; None when there is no such object. One GET."""
        return stored.found(self._client, queue, message_id, project)

    def _read(self, queue, project, mid):
        """The ``Read`` of a message, its object and lock read at once;
        None if there is no such message."""
        found, held = parallel.together(
            lambda: self.found(queue, mid, project),
            lambda: self.index(queue, project).lock_of(mid))
        return None if found is None else Read(*found, held)

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

        def post_one(one):
            mid, msg, delay, found = one
            return self.post_one(queue, project, client_uuid, msg, delay,
                                 found, keep, mid)

        return parallel.each(post_one, posting)

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
