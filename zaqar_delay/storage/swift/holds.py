"""Holds: a message's lock, taken for an operation without a claim (a
reschedule, a move) as a claim takes one, so that claims, deletes and
other operations keep off the message while it changes."""

import collections
import random
import time

from oslo_utils import uuidutils

from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks
from zaqar_delay.storage.swift import parallel

# Seconds a hold lasts: the most a crash part way through the operation
# keeps the message from claims (and deletes).
HOLD = 60
# How long a hold tries again for a shard's lease that another taker
# holds (a claim holds one for a few requests; one left by a taker that
# died ends within ``locks.DOOR`` seconds), and at most how long it
# waits between two tries.
PATIENCE = locks.DOOR
WAIT = 0.05


def hold(index, holders, now, clock):
    """Hold each message of ``holders`` ({id: holder}) for ``HOLD``
    seconds from ``now``: {id: its Lock, or None when a live lock of
    another holder is there, or its shard's lease stayed another's}. A
    live lock of the same holder is taken as ours. Per shard, at once:
    its lease (``locks.lease``, tried again for up to ``PATIENCE``
    seconds while a message wanted has no live lock; ``clock()`` gives
    Zaqar's time), a create-only write of each lock under it, then the
    lease's end: five requests a shard and one a message, when nobody
    else takes the shard."""
    expires = int(now) + HOLD
    shards = collections.defaultdict(list)
    for mid in holders:
        shards[idx.shard(mid)].append(mid)
    taker = uuidutils.generate_uuid()

    def shard(name):
        door = _lease(index, name, taker, {
            mid: holders[mid] for mid in shards[name]}, clock)
        if door is None:
            return []
        try:
            won = parallel.each(
                lambda mid: index.create_lock(
                    mid, holders[mid], expires, int(now), door),
                shards[name])
            return [mid for mid, ok in zip(shards[name], won) if ok]
        finally:
            index.unlease(name, door)

    held = set().union(*parallel.each(shard, shards))
    return {mid: locks.Lock(holders[mid], expires) if mid in held else None
            for mid in holders}


def _lease(index, shard, taker, wanted, clock):
    """The lease of ``shard``, tried again while another taker holds it
    and a message of ``wanted`` ({id: holder}) has no live lock of
    another holder; None if not won."""
    patience = time.monotonic() + PATIENCE

    def taken(mid, now):
        held = index.holder(mid, now)
        return held is not None and held.holder != wanted[mid]

    while True:
        now = clock()
        door = index.lease(shard, taker, now)
        if door is not None or time.monotonic() > patience:
            return door
        if all(taken(mid, now) for mid in wanted):
            return None     # taken meanwhile
        time.sleep(random.uniform(0, WAIT))
