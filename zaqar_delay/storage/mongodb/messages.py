"""Message operations of the ``mongodb.delay`` drivers."""

import heapq
import itertools
import threading

from zaqar import storage
from zaqar.storage import errors
from zaqar.storage.mongodb import messages as upstream_messages
from zaqar.storage.mongodb import utils

from zaqar_delay.storage import boundary
from zaqar_delay.storage import common
from zaqar_delay.storage.mongodb import by_id
from zaqar_delay.storage.mongodb import dedup
from zaqar_delay.storage.mongodb import giveback
from zaqar_delay.storage.mongodb import history as kept
from zaqar_delay.storage.mongodb import moves
from zaqar_delay.storage.mongodb import posting as posting_module
from zaqar_delay.storage.mongodb import queries
from zaqar_delay.storage.mongodb import records
from zaqar_delay.storage.mongodb import steering
from zaqar_delay.storage.mongodb import updates

READY, WAITING, CLAIMED, POSTING = (
    queries.READY, queries.WAITING, queries.CLAIMED, queries.POSTING)

# Seconds after which a post that has not given its documents their
# state is taken for dead (its request died between two writes): its
# documents are deleted, and the post, if it was only slow, fails.
POST_DEADLINE = 120


class DelayMessages:
    """The delay part of the message controllers (a mixin).

    Upstream's documents, with a state ``s`` and its end ``a`` indexed
    beside the due time ``d`` (to the millisecond): a claim or a list page
    examines O(limit) index keys, whatever waits or is claimed ahead. Each
    call first promotes at most ``[delay] promote_batch_size`` documents a
    state. The fields, indexes and queries: doc/source/mongodb.rst.
    """

    def _ensure_indexes(self, collection):
        super()._ensure_indexes(collection)
        for name, fields in queries.INDEXES.items():
            collection.create_index(fields, name=name, background=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # This thread's post in progress (``delays``: of its messages).
        self._posting = threading.local()

    def _collection(self, queue_name, project=None):
        collection = super()._collection(queue_name, project)
        delays = getattr(self._posting, 'delays', None)
        return collection if delays is None else posting_module.Posting(
            collection, self.driver.clock, delays, self._posting.kept,
            self._posting.messages)

    def _promote(self, collection, scope, now):
        batch = self.driver.delay_conf.promote_batch_size
        collection.delete_many(
            queries.abandoned(scope, now - POST_DEADLINE).filter)
        ended = queries.ended(scope, WAITING, now)
        found = list(queries.find(collection, ended, limit=batch,
                                  projection={'_id': 1, 'mv': 1}))
        ids = [doc['_id'] for doc in found if 'mv' not in doc]
        if ids:
            collection.update_many(
                {'_id': {'$in': ids}, 's': WAITING, 'a': {'$lte': now}},
                {'$set': {'s': READY, 'a': 0}})
        moves.heal(self, collection, scope,
                   [doc for doc in found if 'mv' in doc], now)
        giveback.expired(self.driver, collection, scope, now, batch)

    # The queue helpers of mongodb.delay's other modules (claims, stages,
    # export): all they use of this controller.

    def collection(self, queue_name, project=None):
        """The collection that holds the queue's message documents."""
        return self._collection(queue_name, project)

    def ready_view(self, queue_name, project=None):
        """Promote what came due or whose claim ended (at most
        ``promote_batch_size`` of each); return (collection, scope, now),
        ``now`` being ``driver.now_ms()``, the time it judged by."""
        collection = self._collection(queue_name, project)
        scope = utils.scope_queue_name(queue_name, project)
        now = self.driver.now_ms()
        self._promote(collection, scope, now)
        return collection, scope, now

    def markers(self, queue_name, project=None):
        """A function that returns a new marker ``k`` of the queue each
        time it is called (one counter update). The queue's counter is
        made first when missing (one read), as a post makes it: with a
        management store other than MongoDB, nothing else does."""
        self._get_counter(queue_name, project)
        return lambda: self._inc_counter(queue_name, project) - 1

    def _list(self, queue_name, project=None, marker=None,
              echo=False, client_uuid=None, projection=None,
              include_claimed=False, include_delayed=False,
              sort=1, limit=None, count=False):
        """The documents of a list page, in ``k`` order (a list)."""
        if sort not in (1, -1):
            raise ValueError('sort must be either 1 (ascending) '
                             'or -1 (descending)')
        collection, scope, now = self.ready_view(queue_name, project)
        states = [READY]
        if include_claimed:
            states.append(CLAIMED)
        if include_delayed:
            states.append(WAITING)
        after = -1 if marker is None else marker
        if projection is not None:
            projection = dict(projection, k=1, u=1, x=1, s=1)
        cursors = []
        for state in states:
            cursor = queries.find(collection,
                                  queries.in_state(scope, state, after, sort),
                                  projection=projection)
            if limit is not None:
                # Enough for a page unless the client's own messages are
                # left out: then read on, a page at a time.
                cursor = (cursor.limit(limit) if echo
                          else cursor.batch_size(limit + 1))
            cursors.append(cursor)
        docs = heapq.merge(*cursors, key=lambda doc: doc['k'],
                           reverse=sort == -1)
        # Past their expiry, kept for their history: never listed; the
        # ready ones are marked expired after the page is read.
        past = []

        def unexpired(docs):
            for doc in docs:
                if kept.past(doc, now):
                    past.append(doc)
                else:
                    yield doc
        docs = unexpired(docs)
        if not echo:
            own = records.client_binary(client_uuid)
            docs = (doc for doc in docs if doc.get('u') != own)
        # ``count`` is accepted for upstream's signature; listing never
        # counts the queue.
        page = list(itertools.islice(docs, limit))
        ready = [doc['_id'] for doc in past if doc['s'] == READY]
        if ready:
            kept.expire(collection, ready, now)
        return page

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def list(self, queue_name, project=None, marker=None,
             limit=storage.DEFAULT_MESSAGES_PER_PAGE, echo=False,
             client_uuid=None, include_claimed=False, include_delayed=False):
        try:
            marker = None if marker is None else int(marker)
        except ValueError:
            return iter((iter([]), None))
        docs = self._list(queue_name, project=project, marker=marker,
                          echo=echo, client_uuid=client_uuid,
                          include_claimed=include_claimed,
                          include_delayed=include_delayed, limit=limit)
        now = self.driver.now()
        page = [records.basic(doc, now) for doc in docs]
        return iter((iter(page), str(docs[-1]['k']) if docs else None))

    def _unclaim(self, queue_name, claim_id, project=None):
        cid = utils.to_oid(claim_id)
        if cid is None:
            return
        collection = self._collection(queue_name, project)
        held = {'p_q': utils.scope_queue_name(queue_name, project),
                'c.id': cid, 's': CLAIMED}
        giveback.released(self.driver, collection, held,
                          self.driver.now_ms())

    def first(self, queue_name, project=None, sort=1):
        docs = self._list(queue_name, project=project, sort=sort, echo=True,
                          include_claimed=True, include_delayed=True,
                          limit=1)
        for message in docs:
            return records.basic(message, self.driver.now())
        raise errors.QueueIsEmpty(queue_name, project)

    @boundary.refusing
    @utils.raises_conn_error
    def post(self, queue_name, messages, client_uuid, project=None,
             metadata=None):
        messages = [dict(msg) for msg in messages]
        delays, dedups, keep = common.post_plan(
            self.driver, self._queue_ctrl, queue_name, project, messages,
            metadata)
        for msg, delay_seconds in zip(messages, delays):
            msg['delay'] = delay_seconds
        self._posting.delays = delays
        self._posting.kept = keep and [(keep, found) for found in dedups]
        self._posting.messages = messages
        try:
            ids = super().post(queue_name, messages, client_uuid,
                               project=project)
        finally:
            self._posting.delays = None
        # Until this update a new document is POSTING: invisible to
        # claims, lists and stats, never early. With pushes on, each
        # stored one gets its state and its pending push in one write.
        now = self.driver.now_ms()
        collection = self._collection(queue_name, project)
        answers = dedup.answers(
            collection, utils.scope_queue_name(queue_name, project), ids,
            dedups, int(now))
        pushed, rest = [], []
        for mid, answer in zip(ids, answers):
            if answer != mid:
                continue    # not stored: another message answers for it
            (pushed if self.driver.pushes else rest).append(
                utils.to_oid(mid))
        stated = updates.state_update(now)
        for oids, update in ((pushed, stated + updates.PENDING_PUSH),
                             (rest, stated)):
            if oids and collection.update_many(
                    {'_id': {'$in': oids}, 's': POSTING},
                    update).matched_count != len(oids):
                # Too slow: promotion took the post for dead and deleted
                # some of its documents. Not acknowledged; nothing stays.
                collection.delete_many({'_id': {'$in': oids}})
                raise errors.MessageConflict(queue_name, project)
        return answers

    def pop(self, queue_name, limit, project=None):
        # As a claim, then a delete as that claim: deleting one by one
        # and retrying the whole pop when a request failed dropped the
        # messages the first try had deleted (the fault matrix's pop).
        return common.pop(
            self, queue_name, limit, project,
            lambda queue, ids, project, claim_id: self.bulk_delete(
                queue, ids, project, claim_ids=[claim_id], popped=1))


class MessageController(steering.Steering, DelayMessages, by_id.ById,
                        upstream_messages.MessageController):
    __doc__ = DelayMessages.__doc__


class FIFOMessageController(steering.Steering, DelayMessages, by_id.ById,
                            upstream_messages.FIFOMessageController):
    """``mongodb.fifo``'s message controller with the delay index."""
