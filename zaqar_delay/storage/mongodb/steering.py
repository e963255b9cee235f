"""Reschedule and move messages of a ``mongodb.delay`` queue.

Mixed into the message controllers. A reschedule is one update guarded
by the document's state, atomic with claims (a message is rescheduled
or claimed, never both); a move takes a few requests for any number of
messages and is safe to repeat (``moves``). Costs and the crash bound:
doc/source/mongodb.rst, "Reschedule and move".
"""

import datetime

from zaqar.storage import errors
from zaqar.storage.mongodb import utils

from zaqar_delay import delay as rules
from zaqar_delay.history import events as history
from zaqar_delay.storage.mongodb import history as kept
from zaqar_delay.storage.mongodb import moves
from zaqar_delay.storage.mongodb import queries
from zaqar_delay.storage.mongodb import records
from zaqar_delay.storage.mongodb import updates
from zaqar_delay.storage import steering

READY, WAITING, CLAIMED = queries.READY, queries.WAITING, queries.CLAIMED
# No live claim holds a ready or waiting document; a claimed one is
# free once its claim ended (``c.e``, whole seconds).
UNCLAIMED = {'s': {'$in': [READY, WAITING]}}
ATTEMPTS = 3


def _date(seconds):
    return datetime.datetime.fromtimestamp(
        seconds, tz=datetime.timezone.utc).replace(tzinfo=None)


def _expiry(doc):
    """A document's expiry, unix seconds (``x`` when it keeps history)."""
    if doc.get('x') is not None:
        return doc['x']
    return doc['e'].replace(tzinfo=datetime.timezone.utc).timestamp()


def rescheduled(now, due):
    """The update of a document rescheduled at ``now`` to ``due``: out of
    any claim that ended (its backoff dropped), waiting or ready, its
    pending push (if any) due then too, the event recorded."""
    waiting = due > now
    pending = {'$cond': [{'$eq': [{'$type': '$pa'}, 'missing']},
                         '$$REMOVE', due]}
    return [{'$set': {'d': due, 's': WAITING if waiting else READY,
                      'a': due if waiting else 0, 'c.id': None,
                      'c.e': int(now), 'pa': pending}},
            {'$unset': ['c.b', 'c.m']},
            updates.record(history.RESCHEDULED, int(now), due=due)]


class Steering(steering.Steering):
    """``reschedule`` and ``move`` (``storage.steering``)."""

    def reserve_markers(self, queue, project, count):
        """``count`` new markers ``k`` of the queue, in order: a counter
        read (which makes it when missing) and one update."""
        self._get_counter(queue, project)
        top = self._inc_counter(queue, project, amount=count)
        return range(top - count, top)

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def reschedule(self, queue, message_id, project=None, delay=None,
                   due=None):
        """``steering.Steering``'s reschedule (a move holding the
        message counts as a claim). Three requests (the queue, the
        update, the read), two more when it was refused or its claim
        had ended."""
        if not self._queue_ctrl.exists(queue, project):
            raise errors.QueueDoesNotExist(queue, project)
        mid = utils.to_oid(message_id)
        if mid is None:
            raise errors.MessageDoesNotExist(message_id, queue, project)
        collection = self._collection(queue, project)
        query = {'_id': mid, 'p_q': utils.scope_queue_name(queue, project)}
        now = self.driver.now_ms()
        asked = rules.due_asked(now, delay, due)
        lives = {'mv': {'$exists': False}, 'e': {'$gt': _date(asked)},
                 'x': {'$not': {'$lte': asked}}}
        guard = UNCLAIMED
        for _ in range(ATTEMPTS):
            if collection.update_one(dict(query, **lives, **guard),
                                     rescheduled(now, asked)).matched_count:
                found = collection.find_one(query)
                if found is None:   # deleted since
                    raise errors.MessageDoesNotExist(message_id, queue,
                                                     project)
                return records.basic(found, int(now))
            guard = self._refusal(collection.find_one(query), message_id,
                                  queue, project, now, asked)
        # Changed under each attempt: claimed and given back meanwhile.
        raise errors.MessageIsClaimed(message_id)

    @staticmethod
    def _refusal(doc, message_id, queue, project, now, asked):
        """Raise why ``doc`` was not rescheduled, or return the guard to
        try again with (its claim ended: taken out of it)."""
        if (doc is None or doc.get('s') not in (READY, WAITING, CLAIMED)
                or kept.past(doc, now)):
            raise errors.MessageDoesNotExist(message_id, queue, project)
        claim = doc.get('c') or {}
        if 'mv' in doc or (doc['s'] == CLAIMED and claim.get('e', 0) > now):
            raise errors.MessageIsClaimed(message_id)
        if _expiry(doc) <= asked:
            raise steering.expires_first(message_id, _expiry(doc), asked)
        if doc['s'] == CLAIMED:
            return {'s': CLAIMED, 'c.e': {'$lte': int(now)}}
        return UNCLAIMED

    @utils.raises_conn_error
    @utils.retries_on_autoreconnect
    def move(self, queue, target, project=None, ids=None, limit=None,
             delay=None, due=None):
        """``steering.Steering``'s move: raises QueueDoesNotExist (the
        source queue). Nine requests for any number of messages
        (``moves.Move``), and a list page for ``limit``."""
        if not self._queue_ctrl.exists(queue, project):
            raise errors.QueueDoesNotExist(queue, project)
        keep = self._history_ttl(target, project)
        if ids is None:
            ids = self._first_ids(queue, project, limit)
        oids = list(dict.fromkeys(filter(None, map(utils.to_oid, ids))))
        if not oids:
            return []
        now = self.driver.now_ms()
        moved = moves.Move(self, queue, target, project, now,
                           rules.due_asked(now, delay, due), keep).run(oids)
        return [(str(oid), str(moved[oid])) for oid in oids if oid in moved]
