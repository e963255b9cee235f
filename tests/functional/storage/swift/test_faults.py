"""``swift.delay`` operations of several requests, one of which fails:
nothing stays hidden longer than a claim."""

import threading

import fixtures
from oslo_utils import timeutils
import swiftclient
from zaqar.storage import errors

from tests.common import behaviour
from tests.fixtures import faults
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks
from zaqar_delay.storage.swift import messages
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import taker

PROJECT = behaviour.PROJECT


class SwiftFaultTest(behaviour.Helpers, swift_store.DelayTestBase):

    def test_a_renewal_cut_short_gives_the_message_back_at_the_old_end(self):
        (mid,) = self.post(0)
        claim_id, _ = self.claim(ttl=30)
        timeutils.advance_time_seconds(10)
        faults.Fault(self, idx.Index, 'put',
                     swiftclient.ClientException('lost', http_status=503),
                     only=lambda index, kind, *a, **k:
                     kind == idx.CLAIM_EXPIRY)
        self.assertRaises(errors.ConnectionError, self.claims.update,
                          self.queue, claim_id, {'ttl': 100, 'grace': 0},
                          project=PROJECT)
        timeutils.advance_time_seconds(21)      # the old end has passed
        self.assertEqual([mid], self.claim()[1])

    def test_a_retried_lock_write_that_was_applied_is_ours(self):
        client = self.driver.connection
        container = idx.container(idx.LOCK, self.queue, PROJECT)
        now = timeutils.utcnow_ts()
        self.assertTrue(locks.take(client, container, 'm', 'claim-1',
                                   now + 60, now))
        # swiftclient retries a PUT whose reply was lost: the retry finds
        # the lock its first try wrote.
        self.assertTrue(locks.take(client, container, 'm', 'claim-1',
                                   now + 60, now))
        self.assertFalse(locks.take(client, container, 'm', 'claim-2',
                                    now + 60, now))

    def test_a_delayed_post_cut_short_is_not_delayed_forever(self):
        faults.Fault(self, idx.Index, 'put',
                     swiftclient.ClientException('lost', http_status=503),
                     only=lambda index, kind, *a, **k: kind == idx.DUE)
        self.assertRaises(errors.ConnectionError, self.post, 60)
        timeutils.advance_time_seconds(3600)
        counts = self.stats_of(self.queue, PROJECT)
        self.assertEqual(0, counts['delayed'])

    def test_a_release_at_claim_expiry_leaves_the_next_claims_lock(self):
        # Claim A ends while it is being released: claim B takes the
        # message between A's read of the lock and A's deletes.
        (mid,) = self.post(0)
        a, _ = self.claim(ttl=30)
        write = objects.put
        b, started = [], []

        def write_then_b_claims(*args, **kwargs):
            write(*args, **kwargs)
            if not started:     # once: B's claim writes through here too
                started.append(True)
                timeutils.advance_time_seconds(31)
                b.append(self.claim(ttl=60))

        self.useFixture(fixtures.MonkeyPatch(
            'zaqar_delay.storage.swift.claims.objects.put',
            write_then_b_claims))
        self.claims.delete(self.queue, a, project=PROJECT)
        (b_id, b_ids), = b
        self.assertEqual([mid], b_ids)
        index = idx.Index(self.driver.connection, self.queue, PROJECT)
        self.assertEqual(b_id, index.holder(mid, timeutils.utcnow_ts())
                         .holder)
        self.assertEqual([], self.claim()[1])       # B's claim is live
        self.messages.delete(self.queue, mid, project=PROJECT, claim=b_id)

    def test_a_claim_that_ends_while_it_is_released_hides_nothing(self):
        # The claim ends after the release gave back the first message
        # and before it reads the second one's lock.
        first, second = self.post(0, 0)
        a, _ = self.claim(ttl=30)
        write, lock_of = objects.put, idx.Index.lock_of

        def write_then_the_claim_ends(*args, **kwargs):
            write(*args, **kwargs)
            timeutils.advance_time_seconds(31)

        def as_swift_reads_it(index, mid):
            # Swift answers 404 for an object whose X-Delete-At has
            # passed (by its own clock: here, the test's).
            held = lock_of(index, mid)
            return held if held and held.expires > timeutils.utcnow_ts(
                True) else None

        self.useFixture(fixtures.MonkeyPatch(
            'zaqar_delay.storage.swift.index.Index.lock_of',
            as_swift_reads_it))
        with fixtures.MonkeyPatch(
                'zaqar_delay.storage.swift.claims.objects.put',
                write_then_the_claim_ends):
            self.claims.delete(self.queue, a, project=PROJECT)
        self.assertEqual([first, second], sorted(self.claim()[1]))

    def test_a_message_deleted_without_a_claim_does_not_come_back(self):
        # A claim takes the lock and reads the message just after the
        # delete reads the lock, and writes the message back only after
        # the delete is done.
        (mid,) = self.post(0)
        read, take = messages.MessageController._read, \
            taker.Taker._take
        taken, deleted, claimed = threading.Event(), threading.Event(), []

        def take_after_the_delete(ctrl, *args):
            taken.set()
            deleted.wait(60)
            return take(ctrl, *args)

        def read_then_claim(ctrl, *args):
            found = read(ctrl, *args)
            if claimer.ident is None:   # the first delete only
                claimer.start()
                self.assertTrue(taken.wait(60))
            return found

        claimer = threading.Thread(
            target=lambda: claimed.append(self.claim(ttl=60)))
        self.useFixture(fixtures.MonkeyPatch(
            'zaqar_delay.storage.swift.messages.MessageController._read',
            read_then_claim))
        self.useFixture(fixtures.MonkeyPatch(
            'zaqar_delay.storage.swift.taker.Taker._take',
            take_after_the_delete))
        try:
            self.assertRaises(errors.MessageIsClaimed, self.messages.delete,
                              self.queue, mid, project=PROJECT)
        finally:
            deleted.set()
            claimer.join(60)
        (claim_id, ids), = claimed
        self.assertEqual([mid], ids)
        self.messages.delete(self.queue, mid, project=PROJECT,
                             claim=claim_id)
        self.assertRaises(errors.MessageDoesNotExist, self.messages.get,
                          self.queue, mid, project=PROJECT)

    def test_a_delete_without_a_claim_leaves_no_lock(self):
        (mid,) = self.post(0)
        self.messages.delete(self.queue, mid, project=PROJECT)
        index = idx.Index(self.driver.connection, self.queue, PROJECT)
        self.assertIsNone(index.lock_of(mid))
        self.assertEqual([], index.names(idx.READY))

    def test_a_renewal_at_claim_expiry_leaves_the_next_claims_lock(self):
        # Claim A ends while it is being renewed: claim B takes the
        # message between A's read of the lock and A's POST of its expiry.
        (mid,) = self.post(0)
        a, _ = self.claim(ttl=30)
        expire = idx.Index.expire
        b = []

        def b_claims_then_expire(index, kind, *args, **kwargs):
            if kind == idx.LOCK and not b:
                timeutils.advance_time_seconds(31)
                b.append(self.claim(ttl=600))
            return expire(index, kind, *args, **kwargs)

        self.useFixture(fixtures.MonkeyPatch(
            'zaqar_delay.storage.swift.index.Index.expire',
            b_claims_then_expire))
        self.claims.update(self.queue, a, {'ttl': 60, 'grace': 0},
                           project=PROJECT)
        (b_id, b_ids), = b
        self.assertEqual([mid], b_ids)
        index = idx.Index(self.driver.connection, self.queue, PROJECT)
        held = index.lock_of(mid)
        self.assertEqual(b_id, held.holder)
        self.assertEqual(timeutils.utcnow_ts() + 600, held.expires)
        timeutils.advance_time_seconds(61)      # A's renewal would end
        self.assertEqual([], self.claim()[1])   # B's claim is live

    def test_a_renewal_whose_claim_went_meanwhile_says_it_does_not_exist(self):
        # The claim ends while it is being renewed, and its lock and its
        # claim object go (a taker, the object expirer) before the POSTs
        # that move them: ClaimDoesNotExist, not Swift's 404.
        (mid,) = self.post(0)
        a, _ = self.claim(ttl=30)
        expire = idx.Index.expire
        swift = self.driver.connection

        def gone_then_expire(index, kind, name, *args, **kwargs):
            if kind == idx.LOCK:
                swift.delete_object(idx.container(idx.LOCK, self.queue,
                                                  PROJECT), name)
                swift.delete_object('zaqar_claim:%s:%s' % (
                    self.queue, PROJECT), a)
            return expire(index, kind, name, *args, **kwargs)

        self.useFixture(fixtures.MonkeyPatch(
            'zaqar_delay.storage.swift.index.Index.expire', gone_then_expire))
        self.assertRaises(errors.ClaimDoesNotExist, self.claims.update,
                          self.queue, a, {'ttl': 60, 'grace': 0},
                          project=PROJECT)
        timeutils.advance_time_seconds(61)
        self.assertEqual([mid], self.claim()[1])
