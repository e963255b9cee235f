"""Message operations of the ``redis.delay`` driver."""

import uuid

from oslo_utils import uuidutils
from zaqar import storage
from zaqar.storage import errors
from zaqar.storage.redis import messages as upstream_messages
from zaqar.storage.redis import models
from zaqar.storage.redis import utils
from zaqar.storage import utils as s_utils

from zaqar_delay import delay
from zaqar_delay import errors as delay_errors
from zaqar_delay import pending
from zaqar_delay.storage import boundary
from zaqar_delay.storage import common
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import metadata as queue_metadata
from zaqar_delay.storage.redis import records
from zaqar_delay.storage.redis import steering
from zaqar_delay.storage.redis import upstream

Message = models.Message
# Reply codes of scripts/delete.lua (named there the same way); list.lua
# answers NO_QUEUE too.
DELETED, HELD, NOT_CLAIMED, CLAIMED_BY_ANOTHER, NO_QUEUE = 0, 1, 2, 3, 4


class MessageController(steering.Steering,
                        upstream_messages.MessageController):
    """Messages of a delayed queue, indexed so that no scan grows.

    Upstream's records are kept as upstream writes them, so ``redis``
    reads what ``redis.delay`` writes; each queue also has sorted sets
    indexing its messages by state (``keys.Index``). Every change is one
    Lua script (``scripts/``): atomic, O(log n) per message touched
    whatever the backlog, with at most ``[delay] promote_batch_size``
    promotions per call. List markers are ranks. Keys, fields and costs:
    doc/source/redis.rst.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._lua = self.driver.scripts
        self._metadata = self.driver.queue_metadata

    def _now(self):
        return self.driver.now()

    def _delete_queue_messages(self, queue, project, pipe):
        super()._delete_queue_messages(queue, project, pipe)
        # In the queue delete's transaction: its chunks are read there.
        self._lua['drop_index'](keys=list(keys.index(queue, project)),
                                client=pipe)

    @utils.retries_on_connection_error
    def _post(self, keys_, args):
        # Retried with the same ids: the same hashes are written again.
        return self._lua['post'](keys=keys_, args=args)

    @boundary.refusing
    @utils.raises_conn_error
    def post(self, queue, messages, client_uuid, project=None,
             metadata=None):
        """Post as upstream; one script call when the queues are in this
        database (``metadata``), else a metadata read (none when the
        caller gives the queue's ``metadata``) and the script."""
        messages = list(messages)
        client_uuid = str(uuid.UUID(str(client_uuid)))
        if self._metadata is not None:
            planned = self._metadata.planned(
                queue, project, lambda queue_meta, packed: self.store(
                    queue, project, messages, client_uuid,
                    *common.plan(self.driver, queue_meta, messages),
                    planned_with=packed),
                refused=delay_errors.Refused)
            if planned is not None:
                return planned[1]
        delays, dedups, keep = common.post_plan(
            self.driver, self._queue_ctrl, queue, project, messages,
            metadata)
        return self.store(queue, project, messages, client_uuid, delays,
                          dedups, keep)

    def store(self, queue, project, messages, client_uuid, delays, dedups,
              keep=0, planned_with=None):
        """Store checked messages (``post`` without its checks): with
        their delays, ``dedup.Dedup`` (or None) each, and the queue's
        history ttl ``keep`` (0: none); returns the id answering for
        each. With ``planned_with`` (the packed metadata they were
        checked with, ``b''`` for none), nothing is stored when the
        queue's metadata is not that, and ``[0, its packed metadata]``
        is returned. One script call."""
        checksums = self.driver.conf.enable_checksum

        ids = [uuidutils.generate_uuid() for _ in messages]
        pushed = (pending.suffix(queue, keys.unscoped_project(project))
                  if self.driver.pushes else '')
        # The post's time, to the millisecond and up: messages are due
        # at it plus their delay (scripts/post.lua), never before.
        posted = delay.due_at(self.driver.clock(), 0)
        delays = delay.waits_from(messages, delays, posted)
        args = ['%.3f' % posted, pushed, keep,
                int(planned_with is not None), planned_with or b'',
                keys.WAKE]
        own_keys = []
        for mid, msg, msg_delay, dedup in zip(ids, messages, delays, dedups):
            body = msg.get('body', {})
            checksum = s_utils.get_checksum(body) if checksums else None
            args += [msg['ttl'], msg_delay, client_uuid, upstream.pack(body),
                     checksum or '', dedup.window if dedup else 0]
            own_keys += [mid, keys.dedup(queue, project, dedup.digest)
                         if dedup else mid]

        answers = self._post(list(keys.index(queue, project)) +
                             [keys.rank_counter(queue, project),
                              keys.PUSHES, keys.history(queue, project),
                              keys.queue_hash(queue, project)] +
                             own_keys, args)
        if queue_metadata.stale(answers) is not None:
            return answers
        return [answer.decode() if isinstance(answer, bytes) else answer
                for answer in answers]

    def _marker_rank(self, queue, project, marker):
        if not marker:
            return 0
        marker = str(marker)
        if marker.isdigit():
            return int(marker)
        # A marker given by upstream's driver is a message id.
        score = self._client.zscore(keys.index(queue, project).messages,
                                    marker)
        return int(score) if score is not None else 0

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def list(self, queue, project=None, marker=None,
             limit=storage.DEFAULT_MESSAGES_PER_PAGE,
             echo=False, client_uuid=None,
             include_claimed=False, include_delayed=False):
        """As upstream. When the queues are in this database
        (``metadata``), one script call checks that the queue exists,
        lists and returns the messages' fields; otherwise the queue
        controller checks it first."""
        # The script checks the queue only where it can see its set.
        queue_checked = self._metadata is None
        if queue_checked and not self._queue_ctrl.exists(queue, project):
            raise errors.QueueDoesNotExist(queue, project)

        now = self.driver.now_ms()
        reply = self._lua['list'](
            keys=list(keys.index(queue, project)) + [
                keys.history(queue, project), keys.METRICS,
                keys.queues(project)],
            args=[now, self._marker_rank(queue, project, marker), limit,
                  int(bool(include_claimed)), int(bool(include_delayed)),
                  int(bool(echo)), str(client_uuid or ''),
                  self.driver.delay_conf.promote_batch_size,
                  '' if queue_checked else keys.queue_hash(queue, project)])
        if reply[0] == NO_QUEUE:
            raise errors.QueueDoesNotExist(queue, project)
        next_marker = reply[0].decode() or None
        return iter((iter(records.messages(reply[1], now)), next_marker))

    def _in_queue(self, queue, project, message_ids):
        """Fetch messages, keeping only those that belong to the queue."""
        msgset = keys.index(queue, project).messages
        with self._client.pipeline() as pipe:
            for mid in message_ids:
                pipe.hgetall(mid)
                pipe.zscore(msgset, mid)
            replies = pipe.execute()
        now = self._now()
        for hmap, rank in zip(replies[::2], replies[1::2]):
            if hmap and rank is not None:
                if not utils.msg_expired_filter(Message.from_hmap(hmap),
                                                now):
                    yield records.basic(hmap, now)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def first(self, queue, project=None, sort=1):
        """As upstream, but past messages whose record is gone (which
        it took for an empty queue), dropping them from the index
        (``scripts/first.lua``): one script call and one read."""
        if sort not in (1, -1):
            raise ValueError('sort must be either 1 (ascending) '
                             'or -1 (descending)')
        now = self.driver.now()
        mid = self._lua['first'](
            keys=list(keys.index(queue, project)) + [
                keys.history(queue, project)],
            args=[now, sort, self.driver.delay_conf.promote_batch_size])
        message = mid and Message.from_redis(mid.decode(), self._client)
        if not message:
            raise errors.QueueIsEmpty(queue, project)
        return delay.with_age(message.to_basic(now, include_created=True))

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def get(self, queue, message_id, project=None):
        if not self._queue_ctrl.exists(queue, project):
            raise errors.QueueDoesNotExist(queue, project)
        for message in self._in_queue(queue, project, [message_id]):
            return message
        raise errors.MessageDoesNotExist(message_id, queue, project)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def bulk_get(self, queue, message_ids, project=None):
        if not self._queue_ctrl.exists(queue, project):
            return iter([])
        return iter(list(self._in_queue(queue, project, message_ids)))

    def _delete(self, queue, project, message_ids, check, claim_ids=(),
                queue_checked=True):
        """Run the delete script; without ``queue_checked``, the script
        checks that the queue exists (code 4 when it does not)."""
        reply = self._lua['delete'](
            keys=list(keys.index(queue, project)) + [
                keys.history(queue, project), keys.queues(project)] +
            list(message_ids),
            args=[self._now(), check,
                  '' if queue_checked else keys.queue_hash(queue, project)] +
            list(claim_ids))
        return [int(reply[0])] + [r.decode() for r in reply[1:]
                                  if isinstance(r, bytes)]

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def delete(self, queue, message_id, project=None, claim=None):
        """Delete as upstream. When the queues are in this database
        (``metadata``), one script call checks that the queue exists
        and deletes; otherwise the queue controller checks it first."""
        # The script checks the queue only where it can see its set.
        queue_checked = self._metadata is None
        if queue_checked and not self._queue_ctrl.exists(queue, project):
            return
        if claim is not None:
            try:
                uuid.UUID(claim)
            except ValueError:
                if not self._queue_ctrl.exists(queue, project):
                    return
                raise errors.ClaimDoesNotExist(claim, queue, project)

        check, claims = ('unclaimed', []) if claim is None else (
            'claims', [claim])
        code = self._delete(queue, project, [message_id], check, claims,
                            queue_checked)[0]
        if code == NO_QUEUE:
            return
        if code == HELD:
            raise errors.MessageIsClaimed(message_id)
        if code == NOT_CLAIMED:
            raise errors.MessageNotClaimed(message_id)
        if code == CLAIMED_BY_ANOTHER:
            claim_ctrl = self.driver.claim_controller
            if not claim_ctrl._exists(queue, claim, project):
                raise errors.ClaimDoesNotExist(claim, queue, project)
            raise errors.MessageNotClaimedBy(message_id, claim)

    def pop(self, queue, limit, project=None):
        """A claim whose script deletes what it takes
        (``ClaimController.pop``)."""
        return self.driver.claim_controller.pop(queue, limit, project)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def bulk_delete(self, queue, message_ids, project=None, claim_ids=None):
        """As upstream; checks the queue as ``delete`` does."""
        queue_checked = self._metadata is None
        if not message_ids or queue_checked and not self._queue_ctrl.exists(
                queue, project):
            return
        check = 'claims' if claim_ids else 'any'
        reply = self._delete(queue, project, message_ids, check,
                             claim_ids or [], queue_checked)
        if reply[0] == NOT_CLAIMED:
            raise errors.MessageNotClaimed(reply[1])
        if reply[0] == CLAIMED_BY_ANOTHER:
            raise errors.ClaimDoesNotMatch(reply[2], queue, project)
