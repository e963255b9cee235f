"""Switch a live redis store between ``redis`` and ``redis.delay``
(doc/source/admin.rst).

To ``redis.delay``: every queue's messages are put in the index set of
their state, as their hashes say (``reindex.lua``, one atomic batch at
a time); sets of an earlier layout (``keys.UNCHUNKED``, and ``ready``
of rank -> id, which the scripts still read) are dropped. To
``redis``: the index sets are dropped (UNLINK). Both ways, the keys of
projects whose ids hold ``.`` or ``%`` are first renamed (``renames``;
no zaqar-server may write meanwhile). Idempotent.
"""

from oslo_utils import encodeutils
from oslo_utils import timeutils
from zaqar.conf import drivers as drivers_opts
from zaqar.conf import drivers_message_store_redis as redis_opts

from zaqar_delay import delay
from zaqar_delay.storage import base
from zaqar_delay.storage import common
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import renames
from zaqar_delay.storage.redis import scripting
from zaqar_delay.storage.redis import upstream


def reindex(scripts, scope, batch=1000, dry_run=False):
    """Index one queue (by its scope, ``keys.scopes``); yield the Counts
    of each batch as it is done."""
    index = keys.scoped_index(scope)
    after = 0
    while True:
        reply = scripts['reindex'](
            keys=list(index),
            args=[delay.floor_ms(timeutils.utcnow_ts(True)), after, batch,
                  int(not dry_run)])
        last = encodeutils.safe_decode(reply[0])
        if not last:
            if not dry_run:
                scripts.client.unlink(index.ready, *index.unchunked)
            return
        after = last
        yield common.Counts(*(int(n) for n in reply[1:]))


def drop_index(client, scope, dry_run=False):
    """Drop one queue's index sets (by its scope, ``keys.scopes``);
    return how many index entries."""
    index = keys.scoped_index(scope)
    own = index.own() + index.unchunked
    chunks = keys.chunks(client, index)
    with client.pipeline() as pipe:
        # Entries naming a message: not the chunk lists.
        for key in set(own + chunks) - {index.waiting, index.due}:
            pipe.zcard(key)
        entries = sum(pipe.execute())
    if not dry_run:
        client.unlink(*own, *chunks, *index.chunk_lists)
    return entries


def _shown(scope):
    """``<project>.<queue>``, the project id as given."""
    project, queue = keys.split_scope(scope)
    return '%s.%s' % (project or '', queue)


class Migrate(base.Migrate):
    """The queues of a redis store, by ``<project>.<queue>`` scope
    (upstream's key prefix), shown with the project id as given."""

    upstream = 'redis'

    def __init__(self, client, records_scoped=True):
        self.client = client
        self.scripts = scripting.Scripts(client)
        self.records_scoped = records_scoped

    @classmethod
    def connect(cls, config_files, uri=None, database=None,
                partitions=None):
        """Queue records are taken to be ``redis.delay``'s management
        store's unless the config files name upstream's ``redis``."""
        uri = uri or cls.settings(config_files, redis_opts).uri
        management = cls.settings(config_files, drivers_opts)
        return cls(upstream.client(common.plain_uri(uri, 'redis')),
                   management.management_store != 'redis')

    def places(self):
        return [(_shown(scope), scope) for scope in keys.scopes(self.client)]

    def rename(self, to_upstream, dry_run=False):
        for moved in renames.move(self.client, not to_upstream,
                                  self.records_scoped, dry_run):
            if moved.shared:
                yield ('project %r queue %r: left as is, its keys are those '
                       'of project %r queue %r too' % (
                           (moved.project, moved.queue) + moved.shared))
            else:
                yield 'project %r queue %r: %d keys renamed' % moved[:3]

    def reindex(self, place, batch=1000, dry_run=False):
        return reindex(self.scripts, place, batch, dry_run)

    def drop_index(self, place, dry_run=False):
        return '%d index entries' % drop_index(self.client, place, dry_run)
