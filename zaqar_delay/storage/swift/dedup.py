"""Which message holds a dedup key value, in a ``swift.delay`` store.

A queue's ``dedup`` index container (``zaqar_delay_dedup:<queue>:
<project>``) holds a ``locks`` lock per key value, named by its digest:
content the holder's message id, ``X-Delete-At`` the end of its window.
A post takes its value with the lock (``locks.take``); a value whose
window ended or whose message is gone is released (conditionally on that
expiry) and taken again, so only one of two racing posts takes it. A
post that finds the value's lock being taken (a door) waits until its
taker settles it, or the door ends; one that cannot take or find the
value within ``PATIENCE`` seconds raises ``errors.DedupUndecided``
rather than store a second message. A post that another message answers
writes that message's index entries again (``findable``): its own post
may have died between taking the value and writing them.
"""

import random
import time

from oslo_serialization import jsonutils

from zaqar_delay import errors
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks

# At most this many seconds (at random) between two tries: racing posts
# that all lost a value's door spread their next tries over it.
WAIT = 0.5
# How long a post tries to take or find a value: five doors.
PATIENCE = 5 * locks.DOOR


def hold(client, queue, project, dedup, message_id, now, find, drop):
    """(id, object) of the message that holds ``dedup``'s value:
    (``message_id``, None) when it takes it, else a live message's
    posted in the window, with its object as ``find`` read it (``find``
    returns a message's (headers, body), or None when it is gone).
    When neither is known in ``PATIENCE`` seconds (a slow or contended
    store), calls ``drop`` (which deletes the posted message) and raises
    ``errors.DedupUndecided``.

    The posted message's object must already be written (not indexed),
    so that a racing post that finds it holding the value sees it live.
    A value that another post is taking (its bid, or its door, is there)
    is tried again after a random wait: racing posts that all lost try
    again at different times once the door ends.
    """
    container = idx.container(idx.DEDUP, queue, project)
    until = now + dedup.window
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        if locks.take(client, container, dedup.digest, message_id, until,
                      now):
            return message_id, None
        held = locks.read(client, container, dedup.digest)
        if held is None or locks.taking(held):
            # Being taken: its taker settles it, or its door ends (a
            # door is never released: its taker may be settling it).
            time.sleep(random.uniform(0, WAIT))
            continue
        if held.holder == message_id:
            return message_id, None
        found = held.expires > now and find(held.holder)
        if found:
            return held.holder, found
        locks.release(client, container, dedup.digest, held.expires)
    drop()
    raise errors.DedupUndecided(queue=queue, seconds=PATIENCE)


def findable(index, message_id, found, now):
    """Make the message that answers a dedup value findable again: write
    the index entries its post writes (``due`` then ``waiting`` while it
    is delayed at ``now``, to the ms, else ``ready``), from its object
    ``found`` (headers, body: its ``delay_expires`` and ``X-Delete-At``),
    unless a claim has taken it (its ``claim_count``): a claimed message
    was found through its entries, which are its claim's to give back. A
    post that died after ``hold`` and before its own writes left its
    message in no index, holding the value: every retry would be
    answered by a message nobody can claim. Entries are named by the
    message, so writing one that is there changes nothing; one written
    after an acknowledged delete names a message that is gone, which a
    claim drops. One PUT (two, one after the other, for a delayed
    message).
    """
    headers, body = found
    content = jsonutils.loads(body)
    if content.get('claim_count') or content.get('claim_id'):
        return
    expires = int(headers['x-delete-at'])
    due = content.get('delay_expires') or 0
    if due > now:
        index.put(idx.DUE, idx.timed(due, expires, message_id), expires)
        index.put(idx.WAITING, message_id, expires)
    else:
        index.put(idx.READY, message_id, expires)
