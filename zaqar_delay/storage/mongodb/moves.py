"""Move ``mongodb.delay`` messages to another queue without transactions.

A move (``Move``) holds each original with a lease (a claim whose id is
``lease_id`` of the target queue, ``c.m`` the move, for ``LEASE``
seconds; ``mg``, the original's move generation, one up), inserts its
copy under ``copy_id`` as a waiting document no claim takes (``mv``:
that generation, the original), turns the original into a tombstone
(processed, ``mo`` the copy's id) while it holds it, then reveals the
copy (its state from ``d``). A copy is revealed only when its original
is the tombstone of the generation that placed it, so a message is
claimable in one queue at a time; a crash leaves what the next move of
the same ids finishes, or that promotion settles: an original whose
lease ended is given back as any claimed document, and a copy left
unrevealed is revealed or deleted by ``heal``.
doc/source/mongodb.rst, "Reschedule and move", has the order and the
bound.
"""

import calendar
import datetime
import hashlib

from bson import objectid
from pymongo import errors as mongo_errors
from pymongo import operations
from zaqar.storage.mongodb import utils

from zaqar_delay.history import events as history
from zaqar_delay.storage.mongodb import queries
from zaqar_delay.storage.mongodb import updates

READY, WAITING, CLAIMED, PROCESSED = (
    queries.READY, queries.WAITING, queries.CLAIMED, queries.PROCESSED)
LEASE = 60          # seconds a move holds an original
ATTEMPTS = 4        # inserts of a copy lost to marker conflicts (fifo)


def lease_id(scope):
    """The claim id of a move's lease, the same for every move to the
    queue of ``scope`` (so a repeated move takes over a lease)."""
    return objectid.ObjectId(
        hashlib.sha256(b'move:' + scope.encode()).digest()[:12])


def copy_id(oid, scope):
    """The id of ``oid``'s copy in the queue of ``scope``: ``oid``'s
    time, and a hash of both (the same for every move of ``oid``)."""
    return objectid.ObjectId(oid.binary[:4] + hashlib.sha256(
        oid.binary + scope.encode()).digest()[:8])


def _project(scope):
    return scope.rsplit('/', 1)[0] or None


def _date(seconds):
    return datetime.datetime.fromtimestamp(
        seconds, tz=datetime.timezone.utc).replace(tzinfo=None)


def leased(doc, scope):
    """Whether a move to the queue of ``scope`` holds the document, its
    lease live or ended but not given back."""
    return (doc.get('s') == CLAIMED and
            (doc.get('c') or {}).get('id') == lease_id(scope))


def reveal(now, pushes, due=None):
    """The update of a copy revealed at ``now``: its state from ``d``
    (``due`` when given), with a pending push when ``pushes``."""
    update = [{'$unset': 'mv'}]
    if due is not None:
        update.append({'$set': {'d': due}})
    update += updates.state_update(now)
    return update + (updates.PENDING_PUSH if pushes else [])


def _tombstone(now, copy, target):
    # The original, moved: processed (its body dropped unless it keeps
    # history), kept until its expiry for ``heal`` to find.
    return [updates.record(history.MOVED, int(now), to=target,
                           **{'as': str(copy)}),
            {'$set': {'s': PROCESSED, 'a': int(now), 'c.id': None,
                      'c.e': int(now), 'mo': copy,
                      'b': {'$cond': [{'$gt': [{'$ifNull': ['$h', 0]}, 0]},
                                      '$b', '$$REMOVE']}}},
            {'$unset': ['pa', 'pd']}]


def _moved(original, copy):
    """Whether ``original`` (``mo mg``) is the tombstone of the move
    that placed ``copy`` (``_id mv``)."""
    return (original is not None and original.get('mo') == copy['_id']
            and original.get('mg') == copy['mv']['g'])


def heal(controller, collection, scope, docs, now):
    """Settle the unrevealed copies ``docs`` (``_id`` and ``mv``) of the
    queue of ``scope`` whose wait ended by ``now``: reveal a copy whose
    original is the tombstone of the move that placed it, wait on while
    a move to this queue holds the original, else delete it (that move
    did not happen). A read and an update per copy."""
    project = _project(scope)
    for doc in docs:
        moving = doc['mv']
        origin = controller.collection(moving['q'], project)
        found = origin.find_one(
            {'_id': moving['o'],
             'p_q': utils.scope_queue_name(moving['q'], project)},
            projection={'s': 1, 'c': 1, 'mo': 1, 'mg': 1})
        mine = {'_id': doc['_id'], 'mv.g': moving['g']}
        if _moved(found, doc):
            collection.update_one(mine, reveal(now,
                                               controller.driver.pushes))
        elif found and leased(found, scope):
            ends = found['c']['e']
            collection.update_one(mine, {'$set': {
                'a': ends if ends > now else int(now) + LEASE}})
        else:
            collection.delete_one(mine)


class Move:
    """One move of messages from ``source`` to ``target`` (queues of
    ``project``), judged at ``now`` (``driver.now_ms()``), due at
    ``due``; ``keep``: the target's history ttl (0: none)."""

    def __init__(self, controller, source, target, project, now, due,
                 keep):
        self.ctrl = controller
        self.token = objectid.ObjectId()
        self.source, self.target, self.project = source, target, project
        self.now, self.due, self.keep = now, due, keep
        self.scope = utils.scope_queue_name(source, project)
        self.to_scope = utils.scope_queue_name(target, project)
        self.lease = lease_id(self.to_scope)
        self.until = int(now) + LEASE
        self.origin = controller.collection(source, project)
        self.dest = controller.collection(target, project)

    def run(self, oids):
        """Move the documents ``oids`` (a list without repeats); return
        {original id: copy id} of those moved."""
        held = self._hold(oids)
        moved = self._finish(held) if held else {}
        taken = {doc['_id'] for doc in held}
        rest = [oid for oid in oids if oid not in taken]
        if rest:
            moved.update(self._revealed(rest))
        return moved

    def _hold(self, oids):
        """Lease the documents no live claim holds (or that another move
        to the target holds), each one's move generation ``mg`` one up;
        return them (with ``mg``), in ``k`` order. Up to three updates,
        one read."""
        lease = [{'$set': {
            's': CLAIMED, 'a': self.until, 'c.id': self.lease,
            'c.e': self.until, 'c.t': LEASE, 'c.m': self.token,
            'mg': {'$add': [{'$ifNull': ['$mg', 0]}, 1]}}},
            {'$unset': 'c.b'}]
        scoped = {'_id': {'$in': oids}, 'p_q': self.scope,
                  'mv': {'$exists': False}}
        free = self.origin.update_many(
            dict(scoped, s={'$in': [READY, WAITING]}), lease)
        if free.matched_count < len(oids):
            self.origin.update_many(dict(scoped, **{
                's': CLAIMED, 'c.e': {'$lte': int(self.now)}}), lease)
            self.origin.update_many(dict(scoped, **{
                's': CLAIMED, 'c.id': self.lease}), lease)
        return list(self.origin.find(dict(scoped, **{
            'c.id': self.lease, 'c.m': self.token}), sort=[('k', 1)]))

    def _finish(self, held):
        """Place the copies of the originals ``held``, turn those into
        tombstones while this move holds them, reveal their copies:
        {original id: copy id} of those moved. Four requests (a counter
        update and an insert, the tombstones, the reveal), more when
        some original or copy was taken over meanwhile."""
        placed = self._place(held)
        unplaced = [doc['_id'] for doc in held
                    if doc['_id'] not in placed]
        if unplaced:
            self.origin.update_many(
                {'_id': {'$in': unplaced}, 'c.id': self.lease,
                 'c.m': self.token},
                [{'$set': {'c.id': None, 'c.e': int(self.now)}}] +
                updates.state_update(self.now))
        copies = {doc['_id']: copy_id(doc['_id'], self.to_scope)
                  for doc in held if doc['_id'] in placed}
        if not copies:
            return {}
        gens = {doc['_id']: doc['mg'] for doc in held}
        # Only while this move's lease holds the original: not once it
        # was given back, or taken over by another move.
        stones = self.origin.bulk_write([operations.UpdateOne(
            {'_id': oid, 'p_q': self.scope, 's': CLAIMED,
             'c.id': self.lease, 'mg': gens[oid]},
            _tombstone(self.now, copy, self.target))
            for oid, copy in copies.items()], ordered=False)
        if stones.matched_count < len(copies):
            copies = {doc['_id']: doc['mo'] for doc in self.origin.find(
                {'_id': {'$in': list(copies)}, 'p_q': self.scope},
                projection={'mo': 1, 'mg': 1})
                if _moved(doc, {'_id': copies[doc['_id']],
                                'mv': {'g': gens[doc['_id']]}})}
        if copies:
            self.dest.bulk_write([operations.UpdateOne(
                {'_id': copy, 'p_q': self.to_scope, 'mv.g': gens[oid]},
                reveal(self.now, self.ctrl.driver.pushes))
                for oid, copy in copies.items()], ordered=False)
        return copies

    def _place(self, held):
        """Insert each original's unrevealed copy; a copy already there,
        placed by an older move of it (a lower generation), is taken
        over. Returns the ids of the originals whose copies are placed
        (by this move: a copy of another generation is not)."""
        copies = {doc['_id']: self._copy(doc) for doc in held}
        pending, placed = list(copies.values()), set()
        for _ in range(ATTEMPTS):
            if not pending:
                break
            for doc, marker in zip(pending, self.ctrl.reserve_markers(
                    self.target, self.project, len(pending))):
                doc['k'] = marker
            failed = {}
            try:
                self.dest.insert_many(pending, ordered=False)
            except mongo_errors.BulkWriteError as exc:
                for error in exc.details['writeErrors']:
                    if error.get('code') != 11000:
                        raise
                    failed[pending[error['index']]['_id']] = '_id' in (
                        error.get('keyPattern') or {'_id': 1})
            placed.update(doc['mv']['o'] for doc in pending
                          if doc['_id'] not in failed)
            taken = self._adopt([doc for doc in pending
                                 if failed.get(doc['_id'])])
            placed.update(doc['mv']['o'] for doc in taken)
            pending = [doc for doc in pending if doc['_id'] in failed
                       and doc['mv']['o'] not in placed]
        return placed

    def _adopt(self, copies):
        """Take over the unrevealed copies already there of ``copies``
        (this move's, unplaced) when an older generation placed them (or
        this one): one ``bulk_write`` and a read. Returns those taken."""
        if not copies:
            return []
        self.dest.bulk_write([operations.UpdateOne(
            {'_id': copy['_id'], 'p_q': self.to_scope,
             'mv.g': {'$lte': copy['mv']['g']}},
            {'$set': {'mv': copy['mv'], 'a': self.until, 'd': self.due}})
            for copy in copies], ordered=False)
        gens = {doc['_id']: (doc.get('mv') or {}).get('g')
                for doc in self.dest.find(
                    {'_id': {'$in': [copy['_id'] for copy in copies]},
                     'p_q': self.to_scope}, projection={'mv': 1})}
        return [copy for copy in copies
                if gens.get(copy['_id']) == copy['mv']['g']]

    def _copy(self, doc):
        """The unrevealed copy of ``doc`` in the target queue: body, ttl
        and expiry kept, unclaimed, due at ``due``, waiting for its
        reveal until the lease ends; ``mv``: the original's move
        generation, its id, its queue."""
        expires = doc.get('x') or calendar.timegm(doc['e'].utctimetuple())
        copy = {
            '_id': copy_id(doc['_id'], self.to_scope),
            'p_q': self.to_scope, 't': doc['t'], 'e': doc['e'],
            'u': doc.get('u'), 'b': doc.get('b'), 'tx': doc.get('tx'),
            'c': {'id': None, 'e': int(self.now), 'c': 0},
            'd': self.due, 's': WAITING, 'a': self.until,
            'mv': {'g': doc['mg'], 'o': doc['_id'], 'q': self.source}}
        if 'x' in doc:
            copy['e'] = _date(expires)
        if doc.get('cs'):
            copy['cs'] = doc['cs']
        if self.keep:
            copy.update(h=self.keep, x=expires,
                        e=_date(expires + self.keep), hv=[{
                            'k': history.POSTED, 't': int(self.now),
                            'ttl': doc['t'], 'delay': '', 'due': self.due,
                            'dedup': '', 'from': str(doc['_id'])}])
        return copy

    def _revealed(self, oids):
        """Reveal the unrevealed copies of ``oids`` whose originals are
        the tombstones of the moves that placed them (a move died after
        its tombstones): {original id: copy id}. One read, and more only
        if some are."""
        copies = {copy_id(oid, self.to_scope): oid for oid in oids}
        hidden = list(self.dest.find(
            {'_id': {'$in': list(copies)}, 'p_q': self.to_scope,
             'mv': {'$exists': True}}, projection={'mv': 1}))
        if not hidden:
            return {}
        stones = {doc['_id']: doc for doc in self.origin.find(
            {'_id': {'$in': [copies[doc['_id']] for doc in hidden]},
             'p_q': self.scope}, projection={'mo': 1, 'mg': 1})}
        done = {}
        for doc in hidden:
            oid = copies[doc['_id']]
            if _moved(stones.get(oid), doc):
                self.dest.update_one(
                    {'_id': doc['_id'], 'mv.g': doc['mv']['g']},
                    reveal(self.now, self.ctrl.driver.pushes, self.due))
                done[oid] = doc['_id']
        return done
