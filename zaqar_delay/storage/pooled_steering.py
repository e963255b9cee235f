"""Reschedules and moves in a pooled deployment: a stage of Zaqar's
pooled message controller (entry point
``zaqar.storage.pooling.message.stages``), which has no such
operations, that routes them to the store of the pool holding the
queue.

A move between two queues of one pool is that store's move. Between two
pools, no store sees both queues, so each message is moved in three
requests (``move_across``): held back from claims for ``HOLD`` seconds
(a reschedule, refused when a live claim holds it: that message is not
moved), copied into the target queue with an identity derived from its
own id (a repeat of the move finds that copy instead of making another),
then deleted. A move that dies part way leaves each message in the
source queue, due within ``HOLD`` seconds, and perhaps its copy in the
target: repeating the same move finishes it (doc/source/user.rst).
"""

import uuid

from zaqar.storage import errors

from zaqar_delay import dedup
from zaqar_delay import delay
from zaqar_delay.storage import upstream

# Seconds a message moved across pools is held back from claims while it
# is copied: the most a move that dies part way keeps it waiting.
HOLD = 60
# The client id of messages copied into another pool by a move.
MOVER = str(uuid.uuid5(uuid.NAMESPACE_URL, 'zaqar-delay:move'))


class PooledSteering:
    """The stage: ``reschedule`` and ``move`` of the pools' stores."""

    def __init__(self, pooling_driver, control_driver):
        self.catalog = upstream.pool_catalog(pooling_driver)

    def _store(self, queue, project):
        found = self.catalog.get_message_controller(queue, project)
        if found is None:
            raise errors.QueueDoesNotExist(queue, project)
        return found

    def reschedule(self, queue, message_id, project=None, **when):
        return self._store(queue, project).reschedule(
            queue, message_id, project=project, **when)

    def move(self, queue, target, project=None, ids=None, limit=None,
             **when):
        source = self._store(queue, project)
        into = self._store(target, project)
        if self.catalog.lookup(queue, project) is self.catalog.lookup(
                target, project):
            return source.move(queue, target, project=project, ids=ids,
                               limit=limit, **when)
        if ids is None:
            page = next(source.list(queue, project=project, limit=limit,
                                    echo=True, include_delayed=True))
            ids = [found['id'] for found in page]
        return [pair for pair in (
            move_across(source, into, queue, target, project, mid, when)
            for mid in ids) if pair]


def move_across(source, into, queue, target, project, message_id, when):
    """Move one message between two stores; (old id, new id), or None
    when it is not moved (gone, or held by a live claim)."""
    try:
        held = source.reschedule(queue, message_id, project=project,
                                 delay=HOLD)
    except (errors.MessageDoesNotExist, errors.MessageIsClaimed):
        return None
    copy = {'body': held['body'], 'ttl': max(60, held['ttl'] - held['age']),
            dedup.IDENTITY: 'move %s %s' % (queue, message_id)}
    if 'due' in when:
        copy[delay.DUE] = when['due']
    else:
        copy['delay'] = when.get('delay', 0)
    (new_id,) = into.post(target, [copy], MOVER, project=project)
    try:
        source.delete(queue, message_id, project=project)
    except errors.MessageIsClaimed:
        pass    # claimed after HOLD ran out: in both (see the docstring)
    return message_id, new_id
