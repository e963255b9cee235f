"""The dead-letter move of a ``swift.delay`` claim: a message claimed
more than its queue's ``_max_claim_count`` times goes to its
``_dead_letter_queue`` (the rule: ``zaqar_delay.deadletter``)."""

from zaqar_delay import delay
from zaqar_delay.history import events
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import stored


def move(client, taking, policy, mid, msg, client_id):
    """Move message ``mid`` (content ``msg``, locked by the claim being
    made, ``taker.Taking``) to the dead-letter queue of ``policy``
    (``zaqar_delay.deadletter.Policy``): the copy and its
    ``ready`` entry first, then the original, its ``ready`` entry and its
    lock; then, if it keeps history (the copy keeps none), the claim's
    ``claimed`` and the ``dead_lettered`` events. A crash between leaves
    the message in both queues, never in neither (the original is
    claimable again once its lock ends). Five requests (seven with
    history)."""
    now, project = taking.now, taking.project
    dlq = policy.queue
    keep = history.keeps(msg)
    msg.pop(history.KEY, None)
    ttl = policy.ttl or msg['ttl']
    msg.update(claim_id=None, ttl=ttl, delay_expires=delay.due_at(now, 0))
    stored.write(client, dlq, project, mid, msg, now + ttl, client_id)
    idx.Index(client, dlq, project).put(idx.READY, mid, now + ttl)
    stored.delete(client, taking.queue, mid, project)
    taking.index.delete(idx.READY, mid)
    taking.index.delete(idx.LOCK, mid)
    # As on redis.delay, the claim that moved it, then the move.
    history.record(client, taking.queue, project, keep, mid, events.CLAIMED,
                   now, claim=taking.claim_id, count=str(msg['claim_count']))
    history.record(client, taking.queue, project, keep, mid,
                   events.DEAD_LETTERED, now, claim=taking.claim_id, to=dlq)
