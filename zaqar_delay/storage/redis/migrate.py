"""Switch a live redis store between ``redis`` and ``redis.delay``.

``redis`` -> ``redis.delay``: every queue's messages are put in the
index set of their state (``reindex.lua``, one atomic batch at a time),
as their hashes say. Run it after every zaqar-server uses
``redis.delay``; it is idempotent and can be run again at any time.

``redis.delay`` -> ``redis``: nothing needs to change for ``redis`` to
read the store, since the upstream records are always kept; the index
sets are then dropped to free their memory (UNLINK, freed in the
background). Run it after every zaqar-server uses ``redis``.
"""

from oslo_utils import encodeutils
from oslo_utils import timeutils
from zaqar.storage.redis import messages as upstream_messages
from zaqar.storage.redis import utils

from zaqar_delay.storage import common
from zaqar_delay.storage.redis import keys


def queues(client, batch=1000):
    """Yield (queue, project) for every queue that has a message set."""
    start = 0
    while True:
        names = client.zrange(upstream_messages.MSGSET_INDEX_KEY, start,
                              start + batch - 1)
        if not names:
            return
        start += len(names)
        for name in names:
            yield utils.descope_message_ids_set(encodeutils.safe_decode(name))


def reindex(scripts, queue, project, batch=1000, dry_run=False):
    """Index one queue; yield the Counts of each batch as it is done."""
    after = 0
    while True:
        reply = scripts['reindex'](
            keys=list(keys.index(queue, project)),
            args=[timeutils.utcnow_ts(), after, batch, int(not dry_run)])
        last = encodeutils.safe_decode(reply[0])
        if not last:
            return
        after = last
        yield common.Counts(*(int(n) for n in reply[1:]))


def drop_index(client, queue, project, dry_run=False):
    """Drop one queue's index sets; return how many index entries."""
    own = keys.index(queue, project).own()
    with client.pipeline() as pipe:
        for key in own:
            pipe.zcard(key)
        entries = sum(pipe.execute())
    if not dry_run:
        client.unlink(*own)
    return entries
