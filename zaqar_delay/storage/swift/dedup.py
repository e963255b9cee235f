"""Which message holds a dedup key value, in a ``swift.delay`` store.

A queue's ``dedup`` index container (``zaqar_delay_dedup:<queue>:
<project>``) holds a ``locks`` lock per key value, named by its digest:
content the holder's message id, ``X-Delete-At`` the end of its window.
The first create-only write wins a value; a value whose window ended or
whose message is gone is released (conditionally on that expiry) and
taken again, so only one of two racing posts takes it.
"""

from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks

ATTEMPTS = 4    # takeovers lost to racing posts before giving up


def hold(client, queue, project, dedup, message_id, now, exists):
    """The id of the message that holds ``dedup``'s value:
    ``message_id`` when it takes it, else a live message's (``exists``
    tells whether a message id is live) posted in the window.

    The posted message's object must already be written (not indexed),
    so that a racing post that finds it holding the value sees it live.
    """
    container = idx.container(idx.DEDUP, queue, project)
    until = now + dedup.window
    for _ in range(ATTEMPTS):
        if locks.take(client, container, dedup.digest, message_id, until,
                      now):
            return message_id
        held = locks.read(client, container, dedup.digest)
        if held is None:
            continue
        if held.holder == message_id or (held.expires > now and
                                         exists(held.holder)):
            return held.holder
        locks.release(client, container, dedup.digest, held.expires)
    return message_id
