"""Reads and deletes by id of the ``mongodb.delay`` message controllers.

``get``, ``bulk_get``, ``delete`` and ``bulk_delete`` of one queue's
documents, each an ``_id`` query (no index hint): a processed document,
or one past its expiry, reads as missing. ``delete`` refuses a message
that a live claim other than the one given holds, in one conditional
request when it succeeds; a message that keeps history is marked
processed instead of deleted (doc/source/history.rst).
"""

from zaqar.storage import errors
from zaqar.storage.mongodb import utils

from zaqar_delay.history import events as history
from zaqar_delay.storage.mongodb import history as kept
from zaqar_delay.storage.mongodb import queries
from zaqar_delay.storage.mongodb import records
from zaqar_delay.storage.mongodb import updates

PROCESSED = queries.PROCESSED


class ById:
    """The by-id part of the message controllers (a mixin, placed before
    upstream's controller)."""

    # Upstream's hint the ``_id`` index, which the test server
    # (secantusdb) answers in time proportional to the collection; a
    # plain ``_id`` query is O(1) on every server. A delete is one
    # conditional request: it removes the message only if the claim
    # given still holds it (or, without a claim, if no live claim does)
    # and it keeps no history; the reason for a refusal is read only
    # then, and a message that keeps history is marked processed
    # instead, with the same guard (doc/source/history.rst). Processed
    # documents are filtered out here, not in the query: a query on
    # ``_id`` and a range on ``s`` is a collection scan on secantusdb.

    def _of_queue(self, queue_name, project, ids):
        return {'_id': ids, 'p_q': utils.scope_queue_name(queue_name,
                                                          project)}

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def get(self, queue_name, message_id, project=None):
        mid = utils.to_oid(message_id)
        doc = mid and self._collection(queue_name, project).find_one(
            self._of_queue(queue_name, project, mid))
        now = self.driver.now()
        if not doc or doc.get('s') == PROCESSED or kept.past(doc, now):
            raise errors.MessageDoesNotExist(message_id, queue_name,
                                             project)
        return records.basic(doc, now)

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def bulk_get(self, queue_name, message_ids, project=None):
        ids = [mid for mid in map(utils.to_oid, message_ids) if mid]
        if not ids:
            return iter([])
        docs = self._collection(queue_name, project).find(
            self._of_queue(queue_name, project, {'$in': ids}))
        now = self.driver.now()
        return iter([records.basic(doc, now) for doc in docs
                     if doc.get('s') != PROCESSED
                     and not kept.past(doc, now)])

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def delete(self, queue_name, message_id, project=None, claim=None):
        mid = utils.to_oid(message_id)
        if mid is None:
            return
        cid = None if claim is None else utils.to_oid(claim)
        if claim is not None and cid is None:
            raise errors.ClaimDoesNotExist(claim, queue_name, project)
        collection = self._collection(queue_name, project)
        query = self._of_queue(queue_name, project, mid)
        now = self.driver.now()
        guard = {'c.e': {'$lte': now}} if cid is None else {'c.id': cid}
        if collection.delete_one(dict(query, h={'$exists': False},
                                      **guard)).deleted_count:
            return
        doc = collection.find_one(query, projection={'c': 1, 's': 1,
                                                     'h': 1, 'x': 1})
        if doc is None or doc.get('s') == PROCESSED or kept.past(doc, now):
            return
        deleted = updates.processed(now, history.DELETED,
                                    claim=cid or '', popped=0)
        if doc.get('h') and collection.update_one(
                dict(query, s={'$ne': PROCESSED}, **guard),
                deleted).matched_count:
            return
        held = doc['c']['id'] is not None and doc['c']['e'] > now
        if cid is None:
            if held:
                raise errors.MessageIsClaimed(message_id)
            # Unclaimed, stamped by a host whose clock is ahead of ours.
            unclaimed = dict(query, **{'c.id': None})
            if doc.get('h'):
                collection.update_one(unclaimed, deleted)
            else:
                collection.delete_one(unclaimed)
            return
        if held:
            raise errors.MessageNotClaimedBy(message_id, claim)
        raise errors.MessageNotClaimed(message_id)

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def bulk_delete(self, queue_name, message_ids, project=None,
                    claim_ids=None, popped=0):
        """Upstream's, and ``popped`` (0 or 1) for the deleted events of
        messages that keep history: marked processed by a second request,
        made only when the first deleted fewer than ``message_ids``."""
        ids = [mid for mid in map(utils.to_oid, message_ids) if mid]
        collection = self._collection(queue_name, project)
        query = self._of_queue(queue_name, project, {'$in': ids})
        if claim_ids:
            holders = {doc['c']['id'] for doc in collection.find(
                query, projection={'c.id': 1})}
            for cid in map(utils.to_oid, claim_ids):
                if cid and cid not in holders:
                    raise errors.ClaimDoesNotExist(cid, queue_name, project)
        if collection.delete_many(dict(query, h={'$exists': False})
                                  ).deleted_count < len(ids):
            collection.update_many(
                dict(query, h={'$gt': 0}, s={'$ne': PROCESSED}),
                updates.processed(
                    self.driver.now(), history.DELETED,
                    claim={'$ifNull': ['$c.id', '']} if claim_ids else '',
                    popped=popped))
