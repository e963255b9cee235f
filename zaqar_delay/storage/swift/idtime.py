"""Message ids of ``swift.delay``, which hold their posting time.

An id is ``<microseconds since 1970, 16 hex digits>-<16 random hex
digits>``, so ids sort by posting time and Swift lists a queue's
messages in that order. ``created_at`` reads the time back (also from
upstream's uuid1 ids). The copy a move makes has an id ``derived`` from
the original's: the same time, the rest fixed by the original's id.
"""

import re
import threading
import time
import uuid

_PATTERN = re.compile(r'^([0-9a-f]{16})-[0-9a-f]{16}$')
# The namespace of ``derived``'s uuid5s.
_COPIES = uuid.uuid5(uuid.NAMESPACE_URL, 'zaqar-delay:swift.delay:copy')
_UUID1_EPOCH = 0x01b21dd213814000   # 1582-10-15 to 1970-01-01, in 100 ns
_clock = {'last': 0, 'lock': threading.Lock()}


def new():
    """A new message id.

    Within one process the time part strictly increases, so ids posted
    one after the other sort in that order.
    """
    with _clock['lock']:
        micros = max(time.time_ns() // 1000, _clock['last'] + 1)
        _clock['last'] = micros
    return '%016x-%s' % (micros, uuid.uuid4().hex[:16])


def derived(name, posted, *salt):
    """The id of a copy of message ``name`` posted at ``posted`` (unix
    seconds; the time in a ``swift.delay`` id wins): the same posting
    time, then 16 hex digits of a uuid5 of ``name`` and ``salt``, so
    that a copy made again gets the same id."""
    match = _PATTERN.match(name)
    micros = (int(match.group(1), 16) if match
              else int(round(posted * 1e6)))
    return '%016x-%s' % (micros, uuid.uuid5(
        _COPIES, '\n'.join((name,) + salt)).hex[:16])


def second(name):
    """The second (2**20 microseconds) a ``swift.delay`` id was made in,
    as the first 11 hex digits of the id; None for other ids."""
    return name[:11] if _PATTERN.match(name) else None


def created_at(name, headers):
    """When a message was posted: from its id (``swift.delay``'s, or
    upstream's uuid1), else the object's timestamp (which a claim's
    rewrite moves)."""
    match = _PATTERN.match(name)
    if match:
        return int(match.group(1), 16) / 1e6
    try:
        stamp = uuid.UUID(name)
        if stamp.version == 1:
            return (stamp.time - _UUID1_EPOCH) / 1e7
    except ValueError:
        pass
    return float(headers['x-timestamp'])
