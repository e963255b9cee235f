"""A ``mongodb.delay`` move with each of its MongoDB requests failing in
turn (before it is applied, or after: a lost reply, which the driver
retries) or with the zaqar-server dying there (no later request): no
message is ever claimable in both queues, and each ends in exactly one
of them, whether the move is repeated (same ids: it finishes, nothing
twice) or not (promotion heals it once the move's lease has ended)."""

import collections
import os

from bson import objectid
import fixtures
from pymongo import collection
from pymongo import errors as mongo_errors
from oslo_utils import timeutils

from tests.common import behaviour
from tests.common import fault_matrix
from tests.fixtures import faults
from tests.fixtures import mongodb_store
from zaqar_delay.storage.mongodb import driver
from zaqar_delay.storage.mongodb import moves

PROJECT = behaviour.PROJECT
METHODS = ('find', 'find_one', 'count_documents', 'insert_one',
           'insert_many', 'update_one', 'update_many', 'delete_one',
           'delete_many', 'find_one_and_update', 'bulk_write')
HEALED = moves.LEASE + 60


class MoveFaultTest(behaviour.Helpers, mongodb_store.DelayTestBase):

    history = False

    def setUp(self):
        super().setUp()
        self.requests = fault_matrix.Requests(
            self, collection.Collection, METHODS,
            mongo_errors.AutoReconnect('injected'))

    def fresh(self):
        """A source queue with three messages (one waiting), a target."""
        source = 'm-' + self.queue + str(len(self.cases))
        target = mongodb_store.other_partition(self, source, PROJECT)
        for queue in (source, target):
            self.queues.create(queue, project=PROJECT)
            if self.history:
                self.queues.set_metadata(queue, {'_history_ttl': 3600},
                                         project=PROJECT)
        ids = self.post(0, 300, 0, queue=source)
        self.cases.append(source)
        return source, target, ids

    def claimable(self, queue):
        """{body: id} of the messages claimable in ``queue`` now (claimed
        and released)."""
        claim_id, messages = self.claims.create(
            queue, {'ttl': 600, 'grace': 0}, project=PROJECT, limit=20)
        if claim_id:
            self.claims.delete(queue, claim_id, project=PROJECT)
        return [(m['body']['n'], m['id']) for m in messages]

    def check(self, k, applied, dies, repeat):
        what = 'request %d %s %s, %s' % (
            k, 'dying' if dies else 'failing',
            'after' if applied else 'before',
            'repeated' if repeat else 'healed')
        source, target, ids = self.fresh()
        self.requests.arm(k, applied, dies)
        try:
            self.messages.move(source, target, project=PROJECT, ids=ids)
        except (Exception, fault_matrix.Died):
            pass
        self.requests.arm()
        now = [n for n, _ in self.claimable(source) +
               self.claimable(target)]
        self.assertEqual(len(now), len(set(now)), what)    # never both
        again = []
        if repeat:
            again = self.messages.move(source, target, project=PROJECT,
                                       ids=ids)
        # The leases end; promotion heals what a death left.
        for _ in range(3):
            timeutils.advance_time_seconds(HEALED)
            for queue in (source, target):
                self.list_ids(queue=queue)
        found = self.claimable(source) + self.claimable(target)
        self.assertEqual({0: 1, 1: 1, 2: 1}, dict(collections.Counter(
            n for n, _ in found)), what)
        if repeat or not dies:      # finished
            self.assertEqual([], self.claimable(source), what)
            self.assertLessEqual({new for _, new in again},
                                 {mid for _, mid in found}, what)

    def test_a_move_dying_or_failing_at_each_request(self):
        self.cases = []
        source, target, ids = self.fresh()
        self.requests.arm()
        self.assertEqual(3, len(self.messages.move(
            source, target, project=PROJECT, ids=ids)))
        n = self.requests.calls
        self.assertGreater(n, 5)
        # Dying before each request, or after the last; a request failing
        # (the driver retries the move) at the first, middle and last.
        cases = [(k, False, True) for k in range(1, n + 1)]
        cases.append((n, True, True))
        failing = range(1, n + 1) if os.environ.get(
            'ZAQAR_DELAY_FAULT_MATRIX') == 'full' else {1, (n + 1) // 2, n}
        cases += [(k, applied, False) for k in sorted(failing)
                  for applied in (False, True)]
        for k, applied, dies in cases:
            for repeat in (True, False):
                self.check(k, applied, dies, repeat)

    def test_a_copy_is_never_revealed_once_its_original_was_taken(self):
        # The move died after inserting the copy; its lease ended and a
        # consumer claimed the original: neither a repeat nor promotion
        # reveals the copy.
        self.cases = []
        source, target, ids = self.fresh()
        faults.Fault(self, collection.Collection, 'insert_many',
                     fault_matrix.Died(), applied=True)
        self.assertRaises(fault_matrix.Died, self.messages.move, source,
                          target, project=PROJECT, ids=ids[:1])
        timeutils.advance_time_seconds(moves.LEASE + 1)
        self.assertEqual([ids[0]], self.claim(queue=source, limit=1)[1])
        self.assertEqual([], self.messages.move(source, target,
                                                project=PROJECT,
                                                ids=ids[:1]))
        timeutils.advance_time_seconds(moves.LEASE + 1)
        self.assertEqual([], self.claimable(target))

    def test_a_move_outlived_by_its_lease_moves_nothing(self):
        # A zaqar-server stalled after inserting the copy, past the
        # lease: meanwhile promotion gave the original back and deleted
        # the copy.
        self.cases = []
        source, target, ids = self.fresh()
        stalled = []
        insert_many = collection.Collection.insert_many

        def stall(coll, *args, **kwargs):
            inserted = insert_many(coll, *args, **kwargs)
            if not stalled:
                stalled.append(True)
                timeutils.advance_time_seconds(moves.LEASE + 1)
                self.list_ids(queue=source)
                self.list_ids(queue=target)
            return inserted

        self.useFixture(fixtures.MockPatchObject(
            collection.Collection, 'insert_many', stall))
        self.assertEqual([], self.messages.move(source, target,
                                                project=PROJECT,
                                                ids=ids[:1]))
        self.assertEqual([True], stalled)
        self.assertEqual([], self.claimable(target))
        self.assertIn((0, ids[0]), self.claimable(source))

    def test_a_repeat_racing_a_move_takes_it_over(self):
        self.cases = []
        source, target, ids = self.fresh()
        repeated = []
        insert_many = collection.Collection.insert_many

        def repeat_first(coll, *args, **kwargs):
            if not repeated:
                repeated.append(None)
                repeated.append(self.messages.move(
                    source, target, project=PROJECT, ids=ids))
            return insert_many(coll, *args, **kwargs)

        self.useFixture(fixtures.MockPatchObject(
            collection.Collection, 'insert_many', repeat_first))
        first = self.messages.move(source, target, project=PROJECT,
                                   ids=ids)
        self.assertEqual(ids, [old for old, _ in repeated[1]])
        self.assertEqual([], first)     # taken over: moved by the repeat
        timeutils.advance_time_seconds(600)
        self.assertEqual([], self.claimable(source))
        self.assertEqual(sorted(new for _, new in repeated[1]),
                         sorted(mid for _, mid in self.claimable(target)))

    def test_a_stale_move_never_takes_a_copy_from_a_newer_one(self):
        # A move holds the message, then stalls; a repeat takes it over
        # and places its copy; the stale move tries to place its own
        # just before the repeat's tombstones.
        self.cases = []
        source, target, ids = self.fresh()
        now = self.driver.now_ms()
        stale = moves.Move(self.messages, source, target, PROJECT, now,
                           now, 0)
        held = stale._hold([objectid.ObjectId(ids[0])])
        self.assertEqual(1, len(held))
        late = []
        bulk_write = collection.Collection.bulk_write

        def stale_first(coll, *args, **kwargs):
            if not late:
                late.append(None)
                late.append(stale._place(held))
            return bulk_write(coll, *args, **kwargs)

        self.useFixture(fixtures.MockPatchObject(
            collection.Collection, 'bulk_write', stale_first))
        pairs = self.messages.move(source, target, project=PROJECT,
                                   ids=ids[:1])
        self.assertEqual(ids[:1], [old for old, _ in pairs])
        timeutils.advance_time_seconds(HEALED)
        self.assertEqual([(0, pairs[0][1])], self.claimable(target))
        self.assertEqual(set(), late[1])


class KeptMoveFaultTest(MoveFaultTest):
    history = True


class FIFOMoveFaultTest(MoveFaultTest):
    data_driver = driver.FIFODataDriver
