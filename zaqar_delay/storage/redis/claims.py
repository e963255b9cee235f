"""Claim operations of the ``redis.delay`` driver."""

from oslo_utils import uuidutils
from zaqar import storage
from zaqar.storage import errors
from zaqar.storage.redis import claims as upstream_claims
from zaqar.storage.redis import utils

from zaqar_delay import deadletter
from zaqar_delay import retry
from zaqar_delay.storage import message
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import records


# A pop's claim: long enough that no other claim takes what it returns.
POP_TERMS = {'ttl': 60, 'grace': 0}


class ClaimController(upstream_claims.ClaimController):
    """Claims that take only ready messages, atomically and idempotently.

    Claim records are upstream's, so ``redis`` reads them too. Each
    operation is one Lua script that also moves the claimed messages
    between the queue's index sets. A claim is planned with the queue's
    metadata as last seen, which its script checks (``metadata``). Keys
    and fields: doc/source/redis.rst.
    """

    # Upstream's gc gives ``_gc`` the project read out of a key: as keys
    # hold it already (``projects.scoped`` leaves it).
    keyed_projects = ('_gc',)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._lua = self.driver.scripts
        self._metadata = self.driver.queue_metadata

    def _keys(self, queue, project, claim_id):
        return list(keys.index(queue, project)) + keys.claim(
            queue, project, claim_id) + [keys.history(queue, project)]

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def _claim(self, queue, project, claim_id, terms, queue_meta,
               planned_with=None, pop=False):
        """Run the claim script with ``terms`` (ARGV[1..8]) and the
        queue's metadata ``queue_meta``; with ``planned_with`` (that
        metadata packed), the script checks it is the queue's; with
        ``pop``, it deletes what it takes (scripts/claim.lua)."""
        # Retried with the same claim id, the script returns the claim it
        # already made instead of taking more messages.
        policy = deadletter.of_queue(queue_meta)
        return self._lua['claim'](
            keys=self._keys(queue, project, claim_id) + [
                keys.METRICS, keys.queue_hash(queue, project)],
            args=terms + list(retry.terms(retry.of_queue(
                queue_meta, self.driver.max_delay))) + [
                policy.max_claims if policy else '',
                int(planned_with is not None), planned_with or b'',
                int(pop)])

    @staticmethod
    def _terms(now, claim_id, metadata):
        """ARGV[1..6] of claim and renew (scripts/claim_terms.lua), at
        ``now`` (to the ms); expiries are whole seconds, as upstream's."""
        claim_ttl, grace = metadata['ttl'], metadata.get('grace', 0)
        claim_expires = int(now) + claim_ttl
        return [now, claim_id, claim_ttl, claim_expires, claim_ttl + grace,
                claim_expires + grace]

    def _exists(self, queue, claim_id, project):
        # An empty claim has no id (None): it never exists.
        return bool(claim_id) and super()._exists(queue, claim_id, project)

    def _count_messages(self, queue, project):
        return self._client.zcount(keys.index(queue, project).claim_expiry,
                                   '(%d' % self.driver.now(), '+inf')

    @utils.raises_conn_error
    def create(self, queue, metadata, project=None,
               limit=storage.DEFAULT_MESSAGES_PER_CLAIM):
        """Claim as upstream: one script call when the queues are in this
        database (``queue_metadata``), else a metadata read and the
        script."""
        return self._take(queue, metadata, project, limit)

    @utils.raises_conn_error
    def pop(self, queue, limit, project=None):
        """The messages of a claim of ``limit`` for a minute that its
        script deletes as it takes them (recorded as popped): the round
        trips of a claim. One claimed more than the queue's
        ``_max_claim_count`` goes to its dead-letter queue, as a claim's,
        and the claim is then released."""
        claim_id, delivered, moved = self._take(
            queue, POP_TERMS, project, limit, pop=True)
        if moved:
            self.delete(queue, claim_id, project)
        return delivered

    def _take(self, queue, metadata, project, limit, pop=False):
        """(claim id, messages) of a claim; with ``pop``, (claim id,
        messages, whether any went to the dead-letter queue)."""
        now = self.driver.now_ms()
        claim_id = uuidutils.generate_uuid()
        terms = self._terms(now, claim_id, metadata) + [
            limit, self.driver.delay_conf.promote_batch_size]
        if self._metadata is not None:
            planned = self._metadata.planned(
                queue, project, lambda queue_meta, packed: self._claim(
                    queue, project, claim_id, terms, queue_meta,
                    planned_with=packed, pop=pop))
            if planned is not None:
                queue_meta, packed = planned
                return self._claimed(queue, project, claim_id, packed,
                                     queue_meta, now, pop)
        queue_meta = self._queue_ctrl.get(queue, project=project)
        packed = self._claim(queue, project, claim_id, terms, queue_meta,
                             pop=pop)
        return self._claimed(queue, project, claim_id, packed, queue_meta,
                             now, pop)

    def _claimed(self, queue, project, claim_id, packed, queue_meta, now,
                 pop=False):
        """(claim id, messages) of the claim script's reply (packed), those
        claimed too often moved to the dead-letter queue (with ``pop``,
        and whether any was)."""
        claimed = records.messages(packed, now)
        policy = deadletter.of_queue(queue_meta)
        deliver = claimed
        if policy and claimed:
            deliver = self._dead_letter(queue, project, claim_id, claimed,
                                        policy, now)
        found = (claim_id if deliver else None), deliver
        return found + (len(deliver) < len(claimed),) if pop else found

    def _dead_letter(self, queue, project, claim_id, claimed, policy, now):
        """Move messages claimed too often; return the ones to deliver."""
        deliver = []
        dead = keys.index(policy.queue, project)
        for msg in claimed:
            if not deadletter.moves(policy, msg['claim_count']):
                deliver.append(msg)
                continue
            self._lua['dead_letter'](
                keys=list(keys.index(queue, project)) +
                [dead.messages, dead.ready,
                 keys.rank_counter(policy.queue, project), msg['id']] +
                keys.claim(queue, project, claim_id) +
                [keys.history(queue, project), keys.METRICS],
                args=[now, claim_id, policy.ttl or '', policy.queue])
        return deliver

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def get(self, queue, claim_id, project=None):
        """As upstream, each message with its due time
        (``storage.message.Message``): one more round trip."""
        meta, claimed = super().get(queue, claim_id, project)
        hashes = records.read(self._client, [m['id'] for m in claimed])
        return meta, [message.Message(found, records.due_of(hmap))
                      for found, hmap in zip(claimed, hashes)]

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def update(self, queue, claim_id, metadata, project=None):
        """Renew as upstream: one script call, which checks the queue
        where it can see its set (``queue_metadata``)."""
        member = self._queue_member(queue, project)
        if member is None or not uuidutils.is_uuid_like(claim_id):
            raise errors.ClaimDoesNotExist(claim_id, queue, project)
        if not self._lua['renew'](
                keys=self._keys(queue, project, claim_id) + [
                    keys.queues(project)],
                args=self._terms(self.driver.now_ms(), claim_id,
                                 metadata) + [member]):
            raise errors.ClaimDoesNotExist(claim_id, queue, project)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def delete(self, queue, claim_id, project=None):
        """Release as upstream: one script call, which checks the queue
        where it can see its set (``queue_metadata``)."""
        member = self._queue_member(queue, project)
        if member is not None and claim_id:
            self._lua['release'](
                keys=self._keys(queue, project, claim_id) + [
                    keys.METRICS, keys.queues(project)],
                args=[self.driver.now_ms(), claim_id, member])

    def _queue_member(self, queue, project):
        """The queue's member in its project's set, for a script to check
        that the queue exists; '' when the queue controller checked it
        here; None when it does not exist."""
        if self._metadata is not None:
            return keys.queue_hash(queue, project)
        return '' if self._queue_ctrl.exists(queue, project) else None
