"""Failed pushes: list them, and send them again.

A delivery whose retries were spent, that the subscriber refused, or
that did not fit in the lease is recorded by the dispatcher in its
store (``push_store.fail``; ``pending.FAILED_FIELDS``) for ``[delay_push]
failed_retention`` seconds. ``zaqar-delay-manage pushes failed`` lists
the records, ``pushes resend`` sends each message again, once, to its
subscriber as the queue's subscription is now.
"""

from zaqar.storage import errors

from zaqar_delay.push import policy

SENT, REFUSED, GONE, UNSUBSCRIBED = ('sent', 'failed again', 'message gone',
                                     'unsubscribed')


def resend(dispatcher, records):
    """Send each record's message to its subscriber once; return
    [(record, outcome, status)]. A record is forgotten when its push was
    delivered (2xx), or its message or subscription is gone; kept
    otherwise."""
    results, forget = [], []
    for record in records:
        queue, project = record['queue'], record['project']
        outcome, status = _resend(dispatcher, record, queue, project)
        results.append((record, outcome, status))
        if outcome != REFUSED:
            forget.append(record)
    dispatcher.store.forget_failed(forget)
    return results


def _resend(dispatcher, record, queue, project):
    try:
        found = list(dispatcher.messages.bulk_get(
            queue, [record['message_id']], project))
        subscriptions, queue_policy = dispatcher.subscribed(queue, project)
    except errors.QueueDoesNotExist:
        return GONE, None
    if not found:
        return GONE, None
    for subscription in subscriptions:
        if subscription['subscriber'] == record['subscriber']:
            verdict, status = dispatcher.send(subscription, queue, project,
                                              found[0], queue_policy)
            return (SENT if verdict == policy.DONE else REFUSED), status
    return UNSUBSCRIBED, None
