"""Locks made of Swift objects: one writer wins a name until it expires.

A lock's content names its holder, its ``X-Delete-At`` is its expiry
(judged by Zaqar's clock); one that ended is removed with a delete
conditional on that expiry. ``take`` is Moir and Anderson's splitter
(six requests for a free name, one read for a live lock); ``lease`` is
the splitter's door alone (three; ``unlease`` two), under which
``create_held`` writes a lock with one create-only write. Why and the
timing assumed: doc/source/swift.rst, "What Swift guarantees, and the
limits".
"""

import collections
import time

from oslo_utils import timeutils
import swiftclient

from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import responses

# A lock's holder, and when the lock expires.
Lock = collections.namedtuple('Lock', 'holder expires')

# Seconds a lock stays closed when the takers that raced for it all
# lost; a winner that has not settled it in half of that gives it up.
DOOR = 6
# The content of a door (a lock being taken) starts with this.
TAKING = '?'


def bids(container):
    """The container of the bids for the locks of ``container``."""
    return 'zaqar_delay_bid:' + container


def create(client, container, name, content, expires, headers=None):
    """Write an object unless one lives there; False when one does, or
    when ``expires`` passed before Swift took the write (it refuses an
    ``X-Delete-At`` in its past, twice: what the object stands for, a
    bid or a door say, has ended)."""
    try:
        with responses.tolerating(responses.PRECONDITION_FAILED):
            objects.put(client, container, name, content, expires,
                        headers=dict(headers or {},
                                     **{'If-None-Match': '*'}),
                        content_length=len(content))
            return True
        return False
    except swiftclient.ClientException as exc:
        if (exc.http_status != responses.BAD_REQUEST or
                expires > time.time()):
            raise
        return False


def read(client, container, name):
    """The Lock at ``name``, live or not; None if there is none."""
    with responses.tolerating(responses.NOT_FOUND):
        headers, body = client.get_object(container, name)
        return Lock(body.decode(), int(headers['x-delete-at']))
    return None


def take(client, container, name, holder, expires, now):
    """Take ``name`` for ``holder`` until ``expires``; False when a live
    lock of another holder is there, or another taker is taking it. A
    lock that lives is found before any bid: one read instead of a bid,
    a create and a read."""
    held = read(client, container, name)
    for _ in range(2):
        if held is not None and held.holder == TAKING + holder:
            # Our own door: a crash came before the settling.
            return (_bid_of(client, container, name) == holder
                    and _settle(client, container, name, holder, expires,
                                held.expires))
        if held is not None and held.expires > now:
            # Held already by this holder (a migrate run again): ours.
            return held.holder == holder
        if held is not None:
            release(client, container, name, held.expires)
        door, outcome = _split(client, container, name, holder, now)
        if door is not None:
            return outcome and _settle(client, container, name, holder,
                                       expires, door)
        held = outcome
    return False


def lease(client, container, name, holder, now):
    """Take ``name`` for a short while: the splitter without settling, its
    door the lease. The door's end (seconds since 1970) when ``holder``
    won it, else None. What the lease guards must be written while
    ``leased`` says so, and land before the door ends."""
    for _ in range(2):
        door, outcome = _split(client, container, name, holder, now)
        if door is not None:
            return door if outcome else None
        if outcome is not None and outcome.expires > now:
            return None
        if outcome is not None:
            # Left by a taker that died, by Zaqar's clock.
            release(client, container, name, outcome.expires)
    return None


def leased(door):
    """Whether a lease that ends at ``door`` may still be used."""
    return time.time() <= door - DOOR / 2


def lasting(ttl, expires):
    """A check of whether a lock taken for ``ttl`` seconds that ends at
    ``expires`` has more than half of them left, by Zaqar's clock: what
    its holder writes then lands before the lock ends, unless a request
    takes that long."""
    return lambda: timeutils.utcnow_ts(True) < expires - ttl / 2


def unlease(client, container, name, door):
    """End a lease that ``lease`` gave, and delete its bid."""
    parallel.together(lambda: release(client, container, name, door),
                      lambda: _unbid(client, container, name))


def create_held(client, container, name, holder, expires, now):
    """Write a lock, create-only, under a lease that keeps every other
    taker of ``name`` away: True when ``holder`` holds it, False when a
    live lock of another holder is there. A lock that ended is removed
    first."""
    for _ in range(2):
        if create(client, container, name, holder.encode(), expires):
            return True
        held = read(client, container, name)
        if held is not None and held.holder == holder:
            return True     # a retried create whose first try landed
        if held is not None and held.expires > now:
            return False
        if held is not None:
            release(client, container, name, held.expires)
    return False


def _split(client, container, name, holder, now):
    """One try of the splitter on ``name`` for ``holder``: bid, create
    the door, read the bid back. (the door's end, True) when ``holder``
    won; (the door's end, False) when another taker's bid was there or
    came after ours; (None, the lock found there, None if it has gone
    since) when the create found a lock, whose bid is then deleted.
    ``holder``'s own door there (swiftclient retried a create whose
    first try was applied) is won as if the create had succeeded."""
    # ``now`` is when the operation began: the door counts from the
    # clock, or from Zaqar's if that is ahead (as tests set it).
    door = max(now, int(time.time())) + DOOR
    if not _bid(client, container, name, holder, door, now):
        return door, False
    if create(client, container, name, (TAKING + holder).encode(), door):
        return door, _bid_of(client, container, name) == holder
    held, bid = parallel.together(
        lambda: read(client, container, name),
        lambda: _bid_of(client, container, name))
    if held is not None and held.holder == TAKING + holder and (
            bid == holder):
        return held.expires, True
    _unbid(client, container, name)
    return None, held


def _bid(client, container, name, holder, door, now):
    """Write a bid, create-only (a taker that comes while another takes
    the name loses at once, and does not make that one lose): False when
    a live bid is there. A bid left by a taker that died ends with its
    door, by Zaqar's clock."""
    for _ in range(2):
        if create(client, bids(container), name, holder.encode(), door):
            return True
        left = read(client, bids(container), name)
        if left is not None and left.holder == holder:
            return True     # ours: a retried write whose first try landed
        if left is not None and left.expires > now:
            return False
        if left is not None:
            release(client, bids(container), name, left.expires)
    return False


def _unbid(client, container, name):
    # 409: a newer bid was written after this DELETE was timestamped;
    # it is not ours to delete.
    with responses.tolerating(responses.NOT_FOUND, responses.CONFLICT):
        client.delete_object(bids(container), name)


def _bid_of(client, container, name):
    """The holder whose bid for ``name`` is the newest; None if none."""
    bid = read(client, bids(container), name)
    return bid and bid.holder


def _settle(client, container, name, holder, expires, door):
    """Write a won lock again, with its holder and expiry, while its door
    (which ends at ``door``) surely lasts, and delete the bid; False (the
    door stays, and ends) when half of the door's time has passed, or
    the write ended less than a second before the door's end."""
    if time.time() > door - DOOR / 2:
        return False
    parallel.together(
        lambda: objects.put(client, container, name, holder.encode(),
                            expires, content_length=len(holder.encode())),
        lambda: _unbid(client, container, name))
    return time.time() < door - 1


def taking(held):
    """Whether a Lock is a door: being taken, its holder not known yet."""
    return held is not None and held.holder.startswith(TAKING)


def release(client, container, name, expires):
    """Delete the lock at ``name`` if it still expires at ``expires``
    (nobody renewed or retook it); gone already is fine, and so is a
    409: Swift's answer when the lock was written again after this
    DELETE was timestamped (a racing take), which must stay."""
    with responses.tolerating(responses.NOT_FOUND, responses.CONFLICT,
                              responses.PRECONDITION_FAILED):
        client.delete_object(container, name,
                             headers={'X-If-Delete-At': str(int(expires))})
