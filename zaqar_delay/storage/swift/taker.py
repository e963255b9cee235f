"""How a ``swift.delay`` claim takes ready messages.

``Taker.take`` takes up to ``limit`` ready messages for one claim being
made (``Taking``): each through its lock, written create-only under the
lease of its shard, so that two claims never both take a message; a
message due for its dead-letter queue is moved there instead, one
rescheduled and not due yet is let go. ``Taker.write`` writes a taken
message back, claimed. Requests per claim: doc/source/swift.rst.
"""

import collections
import random
import time

from oslo_serialization import jsonutils

from zaqar_delay import deadletter as dead_letters
from zaqar_delay.history import events
from zaqar_delay import retry
from zaqar_delay.storage import message
from zaqar_delay.storage.swift import deadletter
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import records
from zaqar_delay.storage.swift import stored

# Ready names a claim reads at a time (x limit), and how long a process's
# claims on a queue try shards at random after meeting another claim
# (``Taker.take`` below).
SPREAD = 20
CONTENDED_SECONDS = 10
# How many queues a process remembers meeting contention on.
CONTENDED_QUEUES = 10000

# What one claim being made takes its messages with.
Taking = collections.namedtuple(
    'Taking', 'queue project index claim_id expires grace meta now backoff')
# A message taken: as the claim returns it (a ``message.Message``, with
# its id), the expiry it gets and its retry backoff in seconds.
Taken = collections.namedtuple('Taken', 'message expires wait')
# The names of one shard a claim takes at once, and how many it needs.
Share = collections.namedtuple('Share', 'shard need')


class Taker:
    """The taking of ready messages for the claims of one driver."""

    def __init__(self, driver):
        self.driver = driver
        self._client = driver.connection
        self._contended = {}    # queue: monotonic time its spread ends

    def take(self, taking, limit):
        """Take up to ``limit`` ready messages: their ``Taken``, by id.

        The ready index is read a page (``SPREAD`` x ``limit`` names) at
        a time, its names grouped by shard; shards are taken the oldest
        first (at random for ``CONTENDED_SECONDS`` once this process's
        claims on the queue met another), several at once, each under
        its lease. A held name or lease is passed over; reading stops at
        ``limit`` + the promotion batch size names. The cost, and why:
        doc/source/swift.rst, "Cost".
        """
        index = taking.index
        bound = limit + self.driver.delay_conf.promote_batch_size
        contended = self._contended.get(index.name, 0) > time.monotonic()
        taken, marker, tried, met = [], None, 0, False
        while len(taken) < limit and tried < bound:
            listed = index.names(idx.READY, marker=marker,
                                 limit=limit * SPREAD)
            if not listed:
                break
            marker = listed[-1]
            shards = collections.OrderedDict()
            for mid in listed:
                shards.setdefault(idx.shard(mid), []).append(mid)
            order = list(shards)
            if contended:
                random.shuffle(order)
            while order and len(taken) < limit and tried < bound:
                # The next shards whose names make up what is still
                # needed, each taken at once with its share.
                plan, need = [], limit - len(taken)
                while order and need > 0:
                    shard = order.pop(0)
                    plan.append(Share(shard, min(need, len(shards[shard]))))
                    need -= plan[-1].need
                for got, passed, tried_here in parallel.each(
                        lambda share: self._take_shard(
                            taking, share.shard, shards[share.shard],
                            share.need), plan):
                    tried += tried_here
                    taken.extend(got)
                    if passed:
                        contended = met = True
            if len(listed) < limit * SPREAD:
                break
        if met:
            if len(self._contended) > CONTENDED_QUEUES:
                self._contended.clear()
            self._contended[index.name] = (time.monotonic()
                                           + CONTENDED_SECONDS)
        return sorted(taken, key=lambda one: one.message['id'])

    def _take_shard(self, taking, shard, names, need):
        """Take up to ``need`` of ``names`` (ready, of one shard) under
        the shard's lease: (the ``Taken`` of each message taken, whether
        a name or the lease was held by another, how many names were
        tried)."""
        index = taking.index
        door = index.lease(shard, taking.claim_id, taking.now)
        if door is None:
            return [], True, 0

        def lock(mid):
            return index.create_lock(mid, taking.claim_id, taking.expires,
                                     taking.now, door)

        won, passed, tried = [], False, 0
        try:
            while names and len(won) < need and locks.leased(door):
                batch, names = names[:need - len(won)], names[need - len(won):]
                tried += len(batch)
                for mid, held in zip(batch, parallel.each(lock, batch)):
                    if held:
                        won.append(mid)
                    else:
                        passed = True
        finally:
            # The messages are read once their locks are written: a
            # claim that held one before wrote it before giving it up.
            _, found = parallel.together(
                lambda: index.unlease(shard, door),
                lambda: parallel.each(
                    lambda mid: stored.found(self._client, taking.queue, mid,
                                             taking.project), won))
        taken = []
        for mid, one in zip(won, found):
            if one is None:
                parallel.together(lambda: index.delete(idx.READY, mid),
                                  lambda: index.delete(idx.LOCK, mid))
                continue
            one = self._take(taking, mid, *one)
            if one:
                taken.append(one)
        return taken, passed, tried

    def _take(self, taking, mid, headers, body):
        """A locked message as claimed (``Taken``): what ``write`` writes;
        None if it went to the DLQ, or is rescheduled and not due yet
        (``records.waits``: its lock is given up). The message is a
        ``message.Message`` with the due time it came due at."""
        content = jsonutils.loads(body)
        if records.waits(content, self.driver.now_ms()):
            taking.index.unlock(mid, locks.Lock(taking.claim_id,
                                                taking.expires))
            return None
        msg = message.Message(content, records.due_of(mid, content, headers))
        msg['claim_count'] = msg.get('claim_count', 0) + 1
        client = headers.get('x-object-meta-clientid', '')
        policy = dead_letters.of_queue(taking.meta)
        if dead_letters.moves(policy, msg['claim_count']):
            deadletter.move(self._client, taking, policy, mid, msg, client)
            return None
        now = taking.now
        msg_expires = max(int(headers['x-delete-at']),
                          taking.expires + taking.grace)
        msg.update(claim_id=taking.claim_id,
                   ttl=max(msg['ttl'], taking.expires + taking.grace - now))
        wait = taking.backoff and retry.seconds(taking.backoff,
                                                msg['claim_count'])
        msg['retry_backoff'] = wait or 0
        msg['id'] = mid
        # Zaqar's clock is whole seconds; the posting time is finer.
        msg['age'] = max(0, now - idtime.created_at(mid, headers))
        msg['_client'] = client
        return Taken(msg, msg_expires, wait or 0)

    def write(self, taking, taken):
        """Write a taken message back, claimed; trim it to what the claim
        returns."""
        msg = taken.message
        stored.write(self._client, taking.queue, taking.project, msg['id'],
                     {key: value for key, value in msg.items()
                      if key not in ('id', 'age', '_client')},
                     taken.expires, msg.pop('_client'))
        history.record(self._client, taking.queue, taking.project,
                       history.keeps(msg), msg['id'], events.CLAIMED,
                       taking.now, claim=taking.claim_id,
                       count=str(msg['claim_count']))
        for key in ('retry_backoff', 'delay_expires', 'checksum',
                    history.KEY):
            msg.pop(key, None)
