"""Move the keys of projects whose ids hold ``.`` or ``%`` between
upstream's names (the project id as given) and ``redis.delay``'s
(``keys.scoped_project``), for ``migrate``.

A project is found by its queue set ``<project>.queues_set`` (a sorted
set; a hash of that name is a queue's record), whose members
``<project>.<queue>`` name its queues. For each queue: its record, the
keys ``<project>.<queue>.<suffix>`` of ``SUFFIXES``, its waiting chunks
and its history stream are renamed, and its members in the queue set
and upstream's ``msgset_index`` replaced; a queue set left empty is
gone, so a run that stops half-way is finished by the next. A queue
whose old names another project's queue shares (``a.b``/``c`` and
``a``/``b.c`` on upstream's names) is reported and left. Dedup keys
are left to expire. Run while no zaqar-server writes (doc/source/
redis.rst, "Project ids in keys").
"""

import collections
import re

from oslo_utils import encodeutils
from zaqar.storage.redis import messages as upstream_messages
from zaqar.storage.redis import subscriptions

from zaqar_delay.storage.redis import keys

# The suffixes of a queue's keys, besides its waiting chunks.
SUFFIXES = (keys.MESSAGES, keys.RANK_COUNTER, keys.CLAIMS,
            subscriptions.SUBSCRIPTION_IDS_SUFFIX, keys.SCHEDULE_AFTERS,
            keys.WAITING + keys.WAITING_COUNT) + keys.SUFFIXES[1:] + \
    keys.UNCHUNKED
# A project id as ``keys.scoped_project`` writes it: no ``.``, and each
# ``%`` starting ``%25`` or ``%2E``.
_SCOPED = re.compile(r'([^.%]|%25|%2E)*')

# A queue moved (or left: ``shared`` names the other project's queue).
Moved = collections.namedtuple('Moved', 'project queue keys shared')


def _text(value):
    return encodeutils.safe_decode(value)


def _new_project(project, to_scoped):
    """The project's name after the move, or None when it stays."""
    scoped = _SCOPED.fullmatch(project) is not None
    if to_scoped:
        return None if scoped else keys.scoped_project(project)
    raw = keys.unscoped_project(project) if scoped else project
    return None if raw == project else raw


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
    """[(old key, new key)] of the keys of a queue (its scopes ``old``
    and ``new``) that exist, and its history stream's."""
    names = [(old, new)] + [('%s.%s' % (old, suffix),
                             '%s.%s' % (new, suffix)) for suffix in SUFFIXES]
    waiting = '%s.%s' % (old, keys.WAITING)
    for chunk in client.zrange(waiting, 0, -1):
        infix = keys.CHUNK_INFIX + _text(chunk)
        names.append((waiting + infix,
                      '%s.%s%s' % (new, keys.WAITING, infix)))
    with client.pipeline(transaction=False) as pipe:
        for old_key, _ in names:
            pipe.exists(old_key)
        found = pipe.execute()
    return [pair for pair, there in zip(names, found) if there]


def _history(old_project, old, new_project, new):
    return ('%s%d:%s' % (keys.HISTORY, len(old_project), old),
            '%s%d:%s' % (keys.HISTORY, len(new_project), new))


def _move_queue(client, names, member, score, dry_run):
    """Move one queue (``member`` of its project's queue set, with
    ``score``); ``names`` is (old project, new project, raw project)."""
    project, new_project, raw_project = names
    queue = member[len(project) + 1:]
    shared = _sharer(client, raw_project, queue)
    if shared is not None:
        return Moved(raw_project, queue, 0, shared)
    new = '%s.%s' % (new_project, queue)
    pairs = _pairs(client, member, new)
    history = _history(project, member, new_project, new)
    if client.exists(history[0]):
        pairs.append(history)
    if dry_run:
        return Moved(raw_project, queue, len(pairs), None)
    index = upstream_messages.MSGSET_INDEX_KEY
    listed = client.zscore(index, member + '.' + keys.MESSAGES)
    with client.pipeline() as pipe:
        for old_key, new_key in pairs:
            pipe.rename(old_key, new_key)
        if listed is not None:
            pipe.zrem(index, member + '.' + keys.MESSAGES)
            pipe.zadd(index, {new + '.' + keys.MESSAGES: listed})
        pipe.zadd('%s.%s' % (new_project, keys.QUEUES), {new: score})
        pipe.zrem('%s.%s' % (project, keys.QUEUES), member)
        pipe.execute()
    return Moved(raw_project, queue, len(pairs), None)


def move(client, to_scoped, dry_run=False):
    """Move every queue of each project whose name changes (to
    ``redis.delay``'s names when ``to_scoped``, else to upstream's);
    yield a ``Moved`` per queue."""
    for project, key in _queue_sets(client):
        new_project = _new_project(project, to_scoped)
        if new_project is None:
            continue
        names = (project, new_project,
                 project if to_scoped else new_project)
        for member, score in client.zrange(key, 0, -1, withscores=True):
            member = _text(member)
            if member.startswith(project + '.'):
                yield _move_queue(client, names, member, score, dry_run)
