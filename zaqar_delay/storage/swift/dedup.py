"""Which message holds a dedup key value, in a ``swift.delay`` store.

A queue's ``dedup`` index container (``zaqar_delay_dedup:<queue>:
<project>``) holds a ``locks`` lock per key value, named by its digest:
content the holder's message id, ``X-Delete-At`` the end of its window.
A post takes its value with the lock (``locks.take``); a value whose
window ended or whose message is gone is released (conditionally on that
expiry) and taken again, so only one of two racing posts takes it. A
post that finds the value's lock being taken (a door) waits until its
taker settles it, or the door ends.
"""

import time

from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks

ATTEMPTS = 4    # takeovers lost to racing posts before giving up
WAIT = 0.05     # seconds between two reads of a door


def hold(client, queue, project, dedup, message_id, now, exists):
    """The id of the message that holds ``dedup``'s value:
    ``message_id`` when it takes it, else a live message's (``exists``
    tells whether a message id is live) posted in the window.

    The posted message's object must already be written (not indexed),
    so that a racing post that finds it holding the value sees it live.
    """
    container = idx.container(idx.DEDUP, queue, project)
    until = now + dedup.window
    attempts, doors_end = 0, time.monotonic() + locks.DOOR + 1
    while attempts < ATTEMPTS:
        if locks.take(client, container, dedup.digest, message_id, until,
                      now):
            return message_id
        held = locks.read(client, container, dedup.digest)
        if locks.taking(held) and time.monotonic() < doors_end:
            time.sleep(WAIT)
            continue
        attempts += 1
        if held is None:
            continue
        if held.holder == message_id or (held.expires > now and
                                         exists(held.holder)):
            return held.holder
        locks.release(client, container, dedup.digest, held.expires)
    return message_id
