"""Move the keys of projects whose ids hold ``.`` or ``%`` between
upstream's names (the project id as given) and ``redis.delay``'s
(``keys.scoped_project``), for ``migrate``.

A project is found by its queue set ``<project>.queues_set`` (a sorted
set; a hash of that name is a queue's record), whose members
``<project>.<queue>`` name its queues, under either name. Two groups of
keys move apart: a queue's data (the keys ``<project>.<queue>.<suffix>``
of ``SUFFIXES``, its waiting and ready chunks, its history stream, its
member of upstream's ``msgset_index``) takes the names of the message store
switched to; its record and its member of the queue set, those of the
management store (``redis.delay``'s unless it is upstream's ``redis``).
A queue set left empty is gone, so a run that stops half-way is
finished by the next. A queue whose upstream names another project's
queue shares (``a.b``/``c`` and ``a``/``b.c``) is reported and left.
Dedup keys are left to expire. Run while no zaqar-server writes
(doc/source/redis.rst, "Project ids in keys").
"""

import collections
import re

from oslo_utils import encodeutils
from zaqar.storage.redis import messages as upstream_messages
from zaqar.storage.redis import subscriptions

from zaqar_delay.storage.redis import keys

# The suffixes of a queue's keys, besides its waiting and ready chunks.
SUFFIXES = (keys.MESSAGES, keys.RANK_COUNTER, keys.CLAIMS,
            subscriptions.SUBSCRIPTION_IDS_SUFFIX, keys.SCHEDULE_AFTERS,
            keys.WAITING + keys.WAITING_COUNT, keys.READY + keys.CHUNK_LIST,
            keys.READY + keys.WAITING_COUNT) + keys.SUFFIXES[1:] + \
    keys.UNCHUNKED
# A project id as ``keys.scoped_project`` writes it: no ``.``, and each
# ``%`` starting ``%25`` or ``%2E``.
_SCOPED = re.compile(r'([^.%]|%25|%2E)*')

# A queue moved (or left: ``shared`` names the other project's queue).
Moved = collections.namedtuple('Moved', 'project queue keys shared')


def _text(value):
    return encodeutils.safe_decode(value)


def _names(project):
    """(raw, scoped) names of a project named either way in a key."""
    if _SCOPED.fullmatch(project) is not None:
        return keys.unscoped_project(project), project
    return project, str(keys.scoped_project(project))


def _queue_sets(client):
    """[(project, key)] of every project's queue set (SCAN, then TYPE:
    SCAN's TYPE filter needs redis 6)."""
    suffix = '.' + keys.QUEUES
    found = [_text(key)
             for key in client.scan_iter(match='*' + suffix, count=1000)]
    with client.pipeline(transaction=False) as pipe:
        for key in found:
            pipe.type(key)
        types = pipe.execute() if found else []
    return [(key[:-len(suffix)], key) for key, kind in zip(found, types)
            if _text(kind) == 'zset']


def _sharer(client, raw_project, queue):
    """(project, queue) of another project's queue whose record, on
    upstream's names, is that of ``queue`` of ``raw_project``, or
    None."""
    scope = '%s.%s' % (raw_project, queue)
    for at, char in enumerate(scope):
        other = scope[:at]
        if char == '.' and other != raw_project and client.zscore(
                '%s.%s' % (other, keys.QUEUES), scope) is not None:
            return other or None, scope[at + 1:]
    return None


def _pairs(client, old, new):
    """[(old key, new key)] of the data keys of a queue (its scopes
    ``old`` and ``new``) that exist."""
    names = [('%s.%s' % (old, suffix), '%s.%s' % (new, suffix))
             for suffix in SUFFIXES]
    for suffix, chunk_list in ((keys.WAITING, ''),
                               (keys.READY, keys.CHUNK_LIST)):
        held = '%s.%s' % (old, suffix)
        for chunk in client.zrange(held + chunk_list, 0, -1):
            infix = keys.CHUNK_INFIX + _text(chunk)
            names.append((held + infix, '%s.%s%s' % (new, suffix, infix)))
    with client.pipeline(transaction=False) as pipe:
        for old_key, _ in names:
            pipe.exists(old_key)
        found = pipe.execute()
    return [pair for pair, there in zip(names, found) if there]


def _history(old_project, old, new_project, new):
    return ('%s%d:%s' % (keys.HISTORY, len(old_project), old),
            '%s%d:%s' % (keys.HISTORY, len(new_project), new))


def _move_queue(client, project, queue, score, targets, dry_run):
    """Move one queue of ``project`` (as its queue set names it; the
    queue's ``score`` there) to ``targets``: whether its data and its
    record take scoped names."""
    raw, scoped = _names(project)
    data, record = [(scoped if to_scoped else raw) for to_scoped in targets]
    shared = _sharer(client, raw, queue)
    if shared is not None:
        # Scoped already: the names as given are the other queue's.
        return Moved(raw, queue, 0, None if project == data == scoped
                     else shared)
    source = raw if data == scoped else scoped
    old, new = ['%s.%s' % (name, queue) for name in (source, data)]
    pairs = _pairs(client, old, new)
    history = _history(source, old, data, new)
    if client.exists(history[0]):
        pairs.append(history)
    if project != record:
        pairs.append(('%s.%s' % (project, queue), '%s.%s' % (record, queue)))
    if dry_run or not pairs:
        return Moved(raw, queue, len(pairs), None)
    index = upstream_messages.MSGSET_INDEX_KEY
    listed = client.zscore(index, old + '.' + keys.MESSAGES)
    with client.pipeline() as pipe:
        for old_key, new_key in pairs:
            pipe.rename(old_key, new_key)
        if listed is not None:
            pipe.zrem(index, old + '.' + keys.MESSAGES)
            pipe.zadd(index, {new + '.' + keys.MESSAGES: listed})
        if project != record:
            pipe.zadd('%s.%s' % (record, keys.QUEUES),
                      {'%s.%s' % (record, queue): score})
            pipe.zrem('%s.%s' % (project, keys.QUEUES),
                      '%s.%s' % (project, queue))
        pipe.execute()
    return Moved(raw, queue, len(pairs), None)


def move(client, to_scoped, records_scoped=True, dry_run=False):
    """Move the queues of each project whose id holds ``.`` or ``%``:
    their data to ``redis.delay``'s names when ``to_scoped``, else to
    upstream's; their records to ``redis.delay``'s when
    ``records_scoped``. Yield a ``Moved`` per queue that had keys to
    move (or was left)."""
    for project, key in _queue_sets(client):
        raw, scoped = _names(project)
        if raw == scoped:
            continue
        for member, score in client.zrange(key, 0, -1, withscores=True):
            member = _text(member)
            if member.startswith(project + '.'):
                moved = _move_queue(
                    client, project, member[len(project) + 1:], score,
                    (to_scoped, records_scoped), dry_run)
                if moved.keys or moved.shared:
                    yield moved
