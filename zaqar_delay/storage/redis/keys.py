"""Every redis key name the ``redis.delay`` driver uses.

Upstream Zaqar's names are reused so that ``redis`` and ``redis.delay``
read the same store; the index sets added by this driver all have the
``delay.`` infix, which no upstream key has. Names are upstream's
``<project>.<queue>.<suffix>``, the project as ``scoped_project`` writes
it (no dot in it, so the first dot ends it; queue names may hold dots);
``unscoped_project`` reads it back (doc/source/redis.rst, "Project ids
in keys").
"""

import collections
import functools
import re

from oslo_utils import encodeutils
from zaqar.storage.redis import messages as upstream_messages
from zaqar.storage.redis import queues as upstream_queues
from zaqar.storage.redis import utils


class Project(str):
    """A project id as keys hold it (``scoped_project``); ``raw`` is the
    id as Zaqar gave it."""

    raw = None


_SCOPED = re.compile('%(25|2E)')


def scoped_project(project):
    """``project`` as keys hold it, a ``Project``: ``%`` as ``%25`` and
    ``.`` as ``%2E`` (an id with neither is unchanged). None stays None;
    a ``Project`` is returned as is, so encoding twice is encoding once."""
    if project is None or isinstance(project, Project):
        return project
    scoped = Project(project.replace('%', '%25').replace('.', '%2E'))
    scoped.raw = project
    return scoped


def unscoped_project(text):
    """The project id of ``text``, a project as a key or member holds
    it (``scoped_project`` undone); None stays None."""
    if text is None or isinstance(text, Project):
        return getattr(text, 'raw', text)
    return _SCOPED.sub(lambda found: '%' if found.group(1) == '25' else '.',
                       text)


def split_scope(scope):
    """(project or None, queue) of a ``<project>.<queue>`` scope."""
    project, _, queue = scope.partition('.')
    return unscoped_project(project) or None, queue


# The six sets of a queue's index, in the order every script takes them
# as KEYS[1..6] (scripts/index.lua names them the same way).
MESSAGES = 'messages'               # upstream: rank -> id, every message
READY = 'delay.ready'               # chunks of ranks: due, not claimed
WAITING = 'delay.wait'              # chunk -> chunk: chunks of waiting
DUE = 'delay.wait_due'              # earliest due time -> chunk
CLAIMED = 'delay.claimed'           # rank -> id: held by a claim
CLAIM_EXPIRY = 'delay.claim_expiry'  # claim expiry -> id: held by a claim

SUFFIXES = (MESSAGES, READY, WAITING, DUE, CLAIMED, CLAIM_EXPIRY)


# Waiting messages are in chunks of CHUNK ranks: chunk c of a queue is
# the sorted set <waiting>CHUNK_INFIX<c>, and <waiting>WAITING_COUNT
# counts them. Ready messages too: chunk c is <ready>CHUNK_INFIX<c>,
# <ready>CHUNK_LIST lists the chunks and <ready>WAITING_COUNT counts
# them (<ready> itself is the rank -> id set of earlier versions, read
# until empty). Defined here only: the scripts get them when loaded
# (``scripting.source``, scripts/index.lua).
CHUNK = 128
CHUNK_INFIX = '.#'
WAITING_COUNT = '.#n'
CHUNK_LIST = '.#c'
# The waiting sets of stores written before chunks (rank -> id and due
# time -> id), which ``migrate`` replaces.
UNCHUNKED = ('delay.waiting', 'delay.due')


class Index(collections.namedtuple(
        'Index', 'messages ready waiting due claimed claim_expiry')):
    """A queue's index keys; ``list(index)`` is a script's KEYS[1..6]."""

    def own(self):
        """The sorted sets this driver adds (not upstream's message set);
        see ``chunks`` for the rest of its keys."""
        return list(self[1:])

    def chunk(self, c):
        """The sorted set of waiting chunk ``c``: rank -> due time."""
        return '%s%s%s' % (self.waiting, CHUNK_INFIX, c)

    @property
    def waiting_count(self):
        """A string: how many messages wait, in all chunks."""
        return self.waiting + WAITING_COUNT

    def ready_chunk(self, c):
        """The sorted set of ready chunk ``c``: rank -> rank."""
        return '%s%s%s' % (self.ready, CHUNK_INFIX, c)

    @property
    def ready_chunks(self):
        """The sorted set of the ready chunks holding any: c -> c."""
        return self.ready + CHUNK_LIST

    @property
    def ready_count(self):
        """A string: how many messages are in the ready chunks."""
        return self.ready + WAITING_COUNT

    @property
    def chunk_lists(self):
        """The keys that list or count a queue's chunks."""
        return [self.waiting_count, self.ready_chunks, self.ready_count]

    @property
    def unchunked(self):
        """The keys ``UNCHUNKED`` of this queue."""
        return [self.messages[:-len(MESSAGES)] + suffix
                for suffix in UNCHUNKED]


def chunks(client, index):
    """Every key of a queue's waiting and ready chunks (sorted sets of
    ranks), not those listing them (``Index.chunk_lists``)."""
    return [index.chunk(c.decode()) for c in client.zrange(
        index.waiting, 0, -1)] + [index.ready_chunk(c.decode()) for c in
                                  client.zrange(index.ready_chunks, 0, -1)]


RANK_COUNTER = 'rank_counter'       # upstream: next rank of the queue
DEDUP = 'dedup.'                    # dedup.<digest> -> message id
# The store's pending pushes (one set for every queue): due time -> push.
PUSHES = 'zaqar_delay.pushes'
# The channel a post publishes on when it adds a push due before every
# pending one (its due time): dispatchers sleeping towards a later one
# wake (``Pushes.watch``).
WAKE = 'zaqar_delay.pushes.wake'
# Pushes some subscribers answered 2xx for while others were retried:
# push -> those subscribers (``pending.join_subscribers``).
PUSHES_DELIVERED = 'zaqar_delay.pushes.delivered'
# Failed pushes: record key -> JSON record, and record key -> when failed.
FAILED_PUSHES = 'zaqar_delay.pushes.failed'
FAILED_PUSHES_AT = 'zaqar_delay.pushes.failed_at'
# A queue's history (``_history_ttl``): a stream of events, see history.py.
HISTORY = 'zaqar_delay.history.'
# The store's counters for the metrics exporter: field -> count, written
# by the claim, list, release and dead_letter scripts (scripts/metrics.lua).
METRICS = 'zaqar_delay.metrics'
QUEUES = upstream_queues.QUEUES_SET_STORE_NAME  # a project's queues
CLAIMS = 'claims'                   # upstream: claim expiry -> claim id
CLAIM_MESSAGES = 'messages'         # upstream: messages.<claim id>, a list


def index(queue, project):
    """The index keys of a queue (an ``Index``)."""
    return _index(queue, scoped_project(project))


# Every claim, post and list names its queue's index: 3 µs to build.
@functools.lru_cache(maxsize=4096)
def _index(queue, project):
    return Index(*(utils.scope_message_ids_set(queue, project, suffix)
                   for suffix in SUFFIXES))


def scoped_index(scope):
    """The index keys of the queue whose keys start ``<scope>.``
    (``<project>.<queue>``, as upstream's message set names it): the
    same keys as ``index``, without splitting the scope (which a
    store written before ``scoped_project`` may hold ambiguous)."""
    return Index(*('%s.%s' % (scope, suffix) for suffix in SUFFIXES))


def scope_of(messages_key):
    """The ``<project>.<queue>`` scope of upstream's message set key."""
    return messages_key[:-len(MESSAGES) - 1]


def scopes(client, batch=1000):
    """Yield the ``<project>.<queue>`` scope of every queue that has a
    message set (every key of the queue is ``<scope>.<suffix>``;
    ``split_scope`` names its project and queue)."""
    start = 0
    while True:
        names = client.zrange(upstream_messages.MSGSET_INDEX_KEY, start,
                              start + batch - 1)
        if not names:
            return
        start += len(names)
        for name in names:
            yield scope_of(encodeutils.safe_decode(name))


def dedup(queue, project, digest):
    """A dedup key: the id of the message holding a key value (with the
    dedup window as the key's expiry)."""
    project = scoped_project(project)
    return utils.scope_queue_index(queue, project, DEDUP + digest)


def history(queue, project):
    """The history stream of a queue: ``zaqar_delay.history.<n>:<project>.
    <queue>``, n being the length of the project as keys hold it."""
    project = scoped_project(project or '')
    return '%s%d:%s.%s' % (HISTORY, len(project), project, queue)


def queues(project):
    """Upstream's set of a project's queues (member: ``queue_hash``)."""
    return utils.scope_queue_name(QUEUES, scoped_project(project))


def queue_hash(queue, project):
    """Upstream's hash of a queue (field ``m``: its packed metadata)."""
    return utils.scope_queue_name(queue, scoped_project(project))


def rank_counter(queue, project):
    return utils.scope_queue_index(queue, scoped_project(project),
                                   RANK_COUNTER)


def claim(queue, project, claim_id):
    """The claims set of a queue, a claim's hash and its message list."""
    return [utils.scope_claims_set(queue, scoped_project(project), CLAIMS),
            claim_id,
            utils.scope_claim_messages(claim_id, CLAIM_MESSAGES)]


# Schedules (zaqar_delay.schedules): the store's queues with schedules,
# member <queue>/<project> scored by when to look at them next; and per
# queue, schedule name -> after (every tick up to it handled).
SCHEDULES = 'zaqar_delay.schedules'
SCHEDULE_AFTERS = 'delay.schedules'


def schedule_afters(queue, project):
    return utils.scope_queue_index(queue, scoped_project(project),
                                   SCHEDULE_AFTERS)
