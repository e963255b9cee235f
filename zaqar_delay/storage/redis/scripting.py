"""Load the Lua scripts that sit beside this module.

A line ``--- @include "name"`` is replaced by the text of ``name.lua``,
the line ``--- @layout`` (in ``index.lua``) by Lua locals holding the
chunk layout of ``keys`` (``CHUNK``, ``CHUNK_INFIX``, ``WAITING_COUNT``,
``CHUNK_LIST``), ``--- @buckets`` (in ``metrics.lua``) by the claim
lateness bucket bounds of ``counts`` (``CLAIM_BUCKETS_MS``) and
``--- @claimed_fields`` (in ``fields.lua``) by the message fields a
claim or a list returns (``records.CLAIMED_FIELDS``), each defined
there only; every other script is one atomic command whose header lists
its KEYS, ARGV and return value.

Scripts are redis-py registered scripts, each sent by ``direct.Direct``
(one EVALSHA, packed there): run by SHA, and loaded again on a
``NOSCRIPT`` reply, which is what a primary promoted by Sentinel
gives until it runs each script once (tests/functional/storage/redis/
test_sentinel.py). With ``wait_replicas`` (:class:`Replication`), each
write script is sent with a ``WAIT`` behind it on one connection, as
are the plain commands sent through ``sent``.
"""

import collections
import os
import re

from redis import exceptions

from zaqar_delay import counts
from zaqar_delay import errors
from zaqar_delay.storage.redis import direct
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import records

_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       'scripts')
_INCLUDE = re.compile(r'^--- @include "([a-z_]+)"$', re.MULTILINE)
_CONSTANTS = re.compile(r'^--- @(layout|buckets|claimed_fields)$',
                        re.MULTILINE)

# ``[drivers:message_store:redis.delay]`` wait_replicas and
# wait_timeout_ms; replicas 0: no WAIT.
Replication = collections.namedtuple('Replication', 'replicas timeout_ms')
NO_WAIT = Replication(0, 0)


def layout():
    """The Lua line that ``--- @layout`` stands for."""
    return ("local CHUNK, CHUNK_INFIX, WAITING_COUNT, CHUNK_LIST = "
            "%d, '%s', '%s', '%s'" % (keys.CHUNK, keys.CHUNK_INFIX,
                                      keys.WAITING_COUNT, keys.CHUNK_LIST))


def buckets():
    """The Lua line that ``--- @buckets`` stands for."""
    return 'local CLAIM_BUCKETS_MS = {%s}' % ', '.join(
        '%d' % bound for bound in counts.CLAIM_BUCKETS_MS)


def claimed_fields():
    """The Lua line that ``--- @claimed_fields`` stands for."""
    return 'local CLAIMED_FIELDS = {%s}' % ', '.join(
        "'%s'" % field.decode() for field in records.CLAIMED_FIELDS)


# The Lua line each ``--- @<name>`` line stands for.
_LINES = {'layout': layout, 'buckets': buckets,
          'claimed_fields': claimed_fields}


def source(name):
    """Return the text of script ``name`` with its includes and its
    ``--- @<name>`` lines (``_LINES``) expanded."""
    with open(os.path.join(_FOLDER, name + '.lua')) as script:
        text = _CONSTANTS.sub(lambda match: _LINES[match.group(1)](),
                              script.read())
    return _INCLUDE.sub(lambda match: source(match.group(1)), text)


class Replicated:
    """A write script whose reply counts only once replicated.

    Called as a registered script (``keys=``, ``args=``): sends EVALSHA
    and ``WAIT replicas timeout_ms`` in one pipeline, so on one
    connection (WAIT waits for that connection's writes), one round
    trip. Returns the script's reply, or raises ``errors.NotReplicated``
    when fewer replicas acknowledged it in time. On ``NOSCRIPT`` the
    script is loaded and sent once more.
    """

    def __init__(self, script, client, replication):
        self._script, self._client = script, client
        self._replication = replication

    def _send(self, keys, args):
        wanted, timeout_ms = self._replication
        with self._client.pipeline(transaction=False) as pipe:
            pipe.evalsha(self._script.sha, len(keys), *keys, *args)
            pipe.wait(wanted, timeout_ms)
            return pipe.execute()

    def __call__(self, keys=(), args=()):
        keys, args = list(keys), list(args)
        try:
            reply, acked = self._send(keys, args)
        except exceptions.NoScriptError:
            self._script.sha = self._client.script_load(self._script.script)
            reply, acked = self._send(keys, args)
        wanted, timeout_ms = self._replication
        if acked < wanted:
            raise errors.NotReplicated(acked=acked, wanted=wanted,
                                       timeout_ms=timeout_ms)
        return reply


class Scripts:
    """The registered scripts of one redis client, by name."""

    # Scripts on one queue's index (each includes index.lua), and on
    # the store as a whole.
    QUEUE = ('post', 'claim', 'renew', 'release', 'delete', 'list',
             'reindex', 'dead_letter', 'reschedule', 'move', 'first',
             'drop_index')
    STORE = ('push_take', 'push_done', 'push_delivered', 'push_failed',
             'push_forget', 'schedule_take', 'schedule_advance',
             'schedule_touch')
    # The management store's writes of queue records (``control``).
    RECORDS = ('queue_create', 'queue_update', 'queue_delete')
    NAMES = QUEUE + STORE + RECORDS
    # What a lost write of these costs, at a failover: a list's only
    # writes are promotions, which the next claim or list makes again.
    READS = ('list',)
    # Run inside a caller's transaction (``client=pipe``), which is
    # written (and replicated, or not) as the caller's.
    IN_TRANSACTION = ('drop_index',)

    def __init__(self, client, replication=NO_WAIT):
        self.client = client
        self.replication = replication
        self._plain = {name: client.register_script(source(name))
                       for name in self.NAMES}
        self._scripts = {name: direct.Direct(script, client)
                         for name, script in self._plain.items()}
        if replication.replicas:
            for name in (set(self.NAMES) - set(self.READS) -
                         set(self.IN_TRANSACTION)):
                self._scripts[name] = Replicated(self._plain[name],
                                                 client, replication)

    def __getitem__(self, name):
        return self._scripts[name]

    def batch(self, name, calls):
        """The replies of script ``name`` run once per (keys, args) of
        ``calls``, in one round trip (a pipeline, not a transaction),
        with WAIT behind them as for one script (``Replicated``)."""
        def stage(pipe):
            for script_keys, args in calls:
                self._plain[name](keys=script_keys, args=args, client=pipe)
        return sent(self.client, self.replication, stage)


def sent(client, replication, stage):
    """The replies of the commands ``stage(pipe)`` queues on a pipeline
    of ``client`` (one round trip, not a transaction), with ``WAIT``
    behind them when ``replication`` names replicas; raises
    ``errors.NotReplicated`` when fewer acknowledged them in time."""
    wanted, timeout_ms = replication
    with client.pipeline(transaction=False) as pipe:
        stage(pipe)
        if wanted:
            pipe.wait(wanted, timeout_ms)
        replies = pipe.execute()
    if wanted:
        acked = replies.pop()
        if acked < wanted:
            raise errors.NotReplicated(acked=acked, wanted=wanted,
                                       timeout_ms=timeout_ms)
    return replies
