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

import random
import time

from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks

ATTEMPTS = 4    # takeovers lost to racing posts before giving up
WAIT = 0.1      # at most this many seconds (at random) between two tries
# How long a post waits for a value being taken (by a bid, or behind a
# door) before it keeps its own message: three doors.
PATIENCE = 3 * locks.DOOR


def hold(client, queue, project, dedup, message_id, now, exists):
    """The id of the message that holds ``dedup``'s value:
    ``message_id`` when it takes it, else a live message's (``exists``
    tells whether a message id is live) posted in the window.

    The posted message's object must already be written (not indexed),
    so that a racing post that finds it holding the value sees it live.
    A value that another post is taking (its bid, or its door, is there)
    is tried again after a random wait: racing posts that all lost try
    again at different times once the door ends.
    """
    container = idx.container(idx.DEDUP, queue, project)
    until = now + dedup.window
    attempts, patience = 0, time.monotonic() + PATIENCE
    while attempts < ATTEMPTS:
        if locks.take(client, container, dedup.digest, message_id, until,
                      now):
            return message_id
        held = locks.read(client, container, dedup.digest)
        if ((held is None or locks.taking(held))
                and time.monotonic() < patience):
            time.sleep(random.uniform(0, WAIT))
            continue
        attempts += 1
        if held is None:
            continue
        if held.holder == message_id or (held.expires > now and
                                         exists(held.holder)):
            return held.holder
        locks.release(client, container, dedup.digest, held.expires)
    return message_id
