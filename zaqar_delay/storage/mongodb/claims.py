"""Claim operations of the ``mongodb.delay`` drivers."""

import datetime
import hashlib

from bson import objectid
from pymongo import errors as pymongo_errors
from zaqar import storage
from zaqar.storage import errors
from zaqar.storage.mongodb import claims as upstream_claims
from zaqar.storage.mongodb import utils

from zaqar_delay import deadletter
from zaqar_delay import retry
from zaqar_delay.history import events as history
from zaqar_delay.storage import message
from zaqar_delay.storage.mongodb import counters
from zaqar_delay.storage.mongodb import history as kept
from zaqar_delay.storage.mongodb import queries
from zaqar_delay.storage.mongodb import records
from zaqar_delay.storage.mongodb import updates

READY, CLAIMED = queries.READY, queries.CLAIMED


def _utc(timestamp):
    return datetime.datetime.fromtimestamp(
        timestamp, tz=datetime.timezone.utc).replace(tzinfo=None)


class ClaimController(upstream_claims.ClaimController):
    """Claims that take only ready documents, one update each.

    A claim is written in the message documents, as upstream: ``c`` holds
    the claim's id, ttl, expiry and the message's claim count. Claiming
    sets ``s`` to claimed and ``a`` to the claim's expiry in the same
    update, guarded by ``s: ready``, so that a document taken by a
    parallel claim is never taken twice. What it took is read back by
    claim id, on upstream's ``p_q c.id k`` index: O(limit). A claim
    that took delayed messages, or moved some to a dead-letter queue,
    adds that to the store's counters (``counters``): one more update.
    """

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def create(self, queue, metadata, project=None,
               limit=storage.DEFAULT_MESSAGES_PER_CLAIM):
        msg_ctrl = self.driver.message_controller
        queue_meta = self.driver.queue_controller.get(queue,
                                                      project=project)
        ttl, grace = metadata['ttl'], metadata['grace']
        # ``now_ms`` judges due times; claims keep upstream's whole
        # seconds (``now``).
        collection, scope, now_ms = msg_ctrl.ready_view(queue, project)
        now = int(now_ms)
        oid = objectid.ObjectId()
        expires = now + ttl

        ids = kept.ready(collection, scope, limit, now,
                         self.driver.delay_conf.promote_batch_size)
        if not ids:
            return None, []

        # One update a document: claim it (only if still ready) and make
        # sure it outlives the claim and its grace.
        count = {'$add': [{'$ifNull': ['$c.c', 0]}, 1]}
        claim = {'id': oid, 't': ttl, 'e': expires, 'c': count}
        backoff = retry.of_queue(queue_meta, self.driver.max_delay)
        if backoff:
            claim['b'] = updates.backoff_seconds(backoff, count)
        collection.update_many(
            {'_id': {'$in': ids}, 's': READY},
            [{'$set': {
                's': CLAIMED, 'a': expires, 'c': claim,
                **updates.outlive(expires, grace, ttl)}},
             updates.record(history.CLAIMED, now, claim=oid, count='$c.c')])

        policy = deadletter.of_queue(queue_meta)
        moved = 0
        if policy:
            moved = self._dead_letter(collection, scope, oid, policy,
                                      project, now)
        docs = list(queries.find(collection, queries.of_claim(scope, oid)))
        counters.add(self.driver, counters.claimed(
            docs, now_ms, {'dead_lettered': moved}))
        claimed = [records.basic(doc, now) for doc in docs]
        if not claimed:
            return None, []
        return str(oid), claimed

    def _dead_letter(self, collection, scope, oid, policy, project, now):
        """Move the messages of claim ``oid`` claimed too often; return
        how many were found to move."""
        msg_ctrl = self.driver.message_controller
        dlq = policy.queue
        dlq_collection = msg_ctrl.collection(dlq, project)
        marker = msg_ctrl.markers(dlq, project)
        too_often = dict(queries.of_claim(scope, oid).filter,
                         **{'c.c': {'$gt': policy.max_claims}})
        found = 0
        for doc in collection.find(too_often, projection={'_id': 1,
                                                          'h': 1}):
            found += 1
            moved = {'p_q': utils.scope_queue_name(dlq, project),
                     'k': marker(),
                     's': READY, 'a': 0, 'c.id': None, 'c.e': now}
            if policy.ttl:
                moved.update(t=policy.ttl, e=_utc(now + policy.ttl))
            if doc.get('h'):
                self._dead_letter_kept(collection, dlq_collection, doc,
                                       oid, moved, dlq, now)
                continue
            if dlq_collection == collection:
                collection.update_one({'_id': doc['_id'], 'c.id': oid},
                                      {'$set': moved})
                continue
            # Copy first, then delete: a crash or a lost reply between the
            # two leaves the message in both queues (the retried claim
            # finds the copy there), never in neither.
            msg = collection.find_one({'_id': doc['_id'], 'c.id': oid})
            if not msg:
                continue
            msg.update({k: v for k, v in moved.items() if '.' not in k})
            msg['c'].update(id=None, e=now)
            try:
                dlq_collection.insert_one(msg)
            except pymongo_errors.DuplicateKeyError:
                pass    # copied by an attempt whose reply was lost
            collection.delete_one({'_id': doc['_id'], 'c.id': oid})
        return found

    @staticmethod
    def _dead_letter_kept(collection, dlq_collection, doc, oid, moved, dlq,
                          now):
        """Dead-letter a message that keeps history: a copy goes to the
        dead-letter queue under an id made from its own (so that a
        retried claim copies it once), then the original is marked
        processed with the ``dead_lettered`` event. Dying between the
        two leaves it in both queues, as without history."""
        msg = collection.find_one({'_id': doc['_id'], 'c.id': oid})
        if not msg:
            return
        copy_id = objectid.ObjectId(msg['_id'].binary[:4] + hashlib.sha256(
            msg['_id'].binary + b'dead-letter').digest()[:8])
        for name in ('h', 'hv', 'pa', 'pd'):
            msg.pop(name, None)
        if 'x' in msg:
            msg['e'] = _utc(msg.pop('x'))   # its expiry, kept no longer
        msg.update({k: v for k, v in moved.items() if '.' not in k},
                   _id=copy_id)
        msg['c'].update(id=None, e=now)
        try:
            dlq_collection.insert_one(msg)
        except pymongo_errors.DuplicateKeyError:
            pass    # copied by an attempt whose reply was lost
        collection.update_one(
            {'_id': doc['_id'], 'c.id': oid},
            updates.processed(now, history.DEAD_LETTERED, claim=oid,
                              to=dlq, **{'as': str(copy_id)}))

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def get(self, queue, claim_id, project=None):
        """As upstream, each message with its due time
        (``storage.message.Message``): one more read."""
        meta, claimed = super().get(queue, claim_id, project)
        claimed = list(claimed)
        messages = self.driver.message_controller
        docs = messages.collection(queue, project).find(
            {'_id': {'$in': [utils.to_oid(m['id']) for m in claimed]},
             'p_q': utils.scope_queue_name(queue, project)},
            projection={'d': 1})
        dues = {str(doc['_id']): records.due_of(doc) for doc in docs}
        return meta, [message.Message(m, dues.get(m['id']))
                      for m in claimed]

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def update(self, queue, claim_id, metadata, project=None):
        cid = utils.to_oid(claim_id)
        if cid is None:
            raise errors.ClaimDoesNotExist(claim_id, queue, project)
        ttl, grace = metadata['ttl'], metadata['grace']
        msg_ctrl = self.driver.message_controller
        collection = msg_ctrl.collection(queue, project)
        scope = utils.scope_queue_name(queue, project)
        now = self.driver.now()
        expires = now + ttl

        # One update: the claim and the message's own expiry move
        # together, so Mongo's TTL monitor never removes a message that a
        # live claim holds.
        renewed = collection.update_many(
            {'p_q': scope, 'c.id': cid, 's': CLAIMED, 'c.e': {'$gt': now}},
            [{'$set': {
                'c.t': ttl, 'c.e': expires, 'a': expires,
                **updates.outlive(expires, grace, ttl)}}])
        if not renewed.matched_count:
            raise errors.ClaimDoesNotExist(claim_id, queue, project)
