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
               planned_with=None):
        """Run the claim script with ``terms`` (ARGV[1..8]) and the
        queue's metadata ``queue_meta``; with ``planned_with`` (that
        metadata packed), the script checks it is the queue's."""
        # Retried with the same claim id, the script returns the claim it
        # already made instead of taking more messages.
        policy = deadletter.of_queue(queue_meta)
        return self._lua['claim'](
            keys=self._keys(queue, project, claim_id) + [
                keys.METRICS, keys.queue_hash(queue, project)],
            args=terms + list(retry.terms(retry.of_queue(
                queue_meta, self.driver.max_delay))) + [
                policy.max_claims if policy else '',
                int(planned_with is not None), planned_with or b''])

    @staticmethod
    def _terms(now, claim_id, metadata):
        """ARGV[1..6] of claim and renew (scripts/claim_terms.lua), at
        ``now`` (to the ms); expiries are whole seconds, as upstream's."""
        claim_ttl, grace = metadata['ttl'], metadata['grace']
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
        now = self.driver.now_ms()
        claim_id = uuidutils.generate_uuid()
        terms = self._terms(now, claim_id, metadata) + [
            limit, self.driver.delay_conf.promote_batch_size]
        if self._metadata is not None:
            planned = self._metadata.planned(
                queue, project, lambda queue_meta, packed: self._claim(
                    queue, project, claim_id, terms, queue_meta,
                    planned_with=packed))
            if planned is not None:
                queue_meta, hashes = planned
                return self._claimed(queue, project, claim_id, hashes,
                                     queue_meta, now)
        queue_meta = self._queue_ctrl.get(queue, project=project)
        hashes = self._claim(queue, project, claim_id, terms, queue_meta)
        return self._claimed(queue, project, claim_id, hashes, queue_meta,
                             now)

    def _claimed(self, queue, project, claim_id, hashes, queue_meta, now):
        """(claim id, messages) of the claim script's reply, those
        claimed too often moved to the dead-letter queue."""
        if not hashes:
            return None, []
        claimed = [records.basic(records.of_fields(values), int(now))
                   for values in hashes]
        policy = deadletter.of_queue(queue_meta)
        if policy:
            claimed = self._dead_letter(queue, project, claim_id, claimed,
                                        policy, now)
            if not claimed:
                return None, []
        return claim_id, claimed

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
        if not self._exists(queue, claim_id, project):
            raise errors.ClaimDoesNotExist(claim_id, queue, project)
        renewed = self._lua['renew'](
            keys=self._keys(queue, project, claim_id),
            args=self._terms(self.driver.now_ms(), claim_id, metadata))
        if not renewed:
            raise errors.ClaimDoesNotExist(claim_id, queue, project)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def delete(self, queue, claim_id, project=None):
        if not self._exists(queue, claim_id, project):
            return
        self._lua['release'](
            keys=self._keys(queue, project, claim_id) + [keys.METRICS],
            args=[self.driver.now_ms(), claim_id])
