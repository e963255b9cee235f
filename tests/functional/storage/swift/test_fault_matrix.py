"""The fault matrix (``tests/common/fault_matrix.py``) on ``swift.delay``:
each Swift request of an operation fails in turn; and the same for its
reschedules and moves (doc/source/swift.rst, "Reschedules and moves")."""

import uuid

from oslo_utils import timeutils
import swiftclient
from zaqar.storage.swift import driver as upstream_driver

from tests.common import behaviour
from tests.common import fault_matrix
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import holds
from zaqar_delay.storage.swift import locks
from zaqar_delay.storage.swift import migrate

PROJECT = fault_matrix.PROJECT


class SwiftFaultMatrixTest(fault_matrix.FaultMatrix,
                           swift_store.DelayTestBase):

    FAULT_METHODS = ('get_object', 'head_object', 'put_object',
                     'post_object', 'delete_object', 'get_container')
    FAULT_READS = ('get_object', 'head_object', 'get_container')

    def fault_target(self):
        return self.driver.connection

    def fault_error(self):
        return swiftclient.ClientException('injected', http_status=503)

    def upstream_driver(self):
        return upstream_driver.DataDriver(self.conf, self.control.cache,
                                          self.control)

    def migrate(self, queue):
        for _ in migrate.reindex(self.driver.connection, queue,
                                 fault_matrix.PROJECT, batch=2):
            pass


class SwiftSteeringFaultMatrixTest(behaviour.Helpers,
                                   swift_store.DelayTestBase):
    """Reschedules and moves with Swift request k failing (before it is
    applied, or after), or the zaqar-server dying before it, for each k
    (``fault_matrix.FaultMatrix.points``): nothing is claimable before
    its due time, nothing is lost, and a move repeated after a failure
    leaves each message once, in the target."""

    def setUp(self):
        super().setUp()
        self.requests = fault_matrix.Requests(
            self, self.driver.connection, SwiftFaultMatrixTest.FAULT_METHODS,
            swiftclient.ClientException('injected', http_status=503))

    def queue_made(self):
        queue = 's-' + uuid.uuid4().hex[:8]
        self.queues.create(queue, project=PROJECT)
        return queue

    def sweep(self, operation):
        """Run ``operation(k, applied, dies)`` for each case; the number
        of requests of one run without a fault."""
        self.requests.arm()
        operation(None, False, False)
        n = self.requests.calls
        self.assertGreater(n, 0)
        fault_matrix.sweep(
            self.requests, fault_matrix.FaultMatrix.points(self, n),
            SwiftFaultMatrixTest.FAULT_READS, operation)
        return n

    def run_armed(self, k, applied, dies, call):
        """``call()`` with request k failing; whether it was answered."""
        self.requests.arm(k, applied, dies)
        try:
            call()
            return True
        except (Exception, fault_matrix.Died):
            return False
        finally:
            self.requests.arm()

    def test_a_reschedule(self):
        def reschedule(k, applied, dies):
            what = 'k=%s applied=%s dies=%s' % (k, applied, dies)
            queue = self.queue_made()
            (mid,) = self.post(0, queue=queue)
            acked = self.run_armed(k, applied, dies, lambda: (
                self.messages.reschedule(queue, mid, project=PROJECT,
                                         delay=600)))
            # Whatever a claim takes is due, by the time it shows.
            now = timeutils.utcnow_ts(True)
            for one in self.claims.create(queue, {'ttl': 30, 'grace': 0},
                                          project=PROJECT)[1]:
                self.assertLessEqual(one.due, now, what)
            # Once the hold (and that claim) ended: claimable if due.
            timeutils.advance_time_seconds(holds.HOLD + 1)
            due = self.messages.get(queue, mid, project=PROJECT).due
            if acked:
                self.assertGreater(due, timeutils.utcnow_ts(True), what)
            self.assertEqual(due <= timeutils.utcnow_ts(True),
                             mid in self.claim(ttl=30, queue=queue)[1], what)
            # Past the new due time: once.
            timeutils.advance_time_seconds(fault_matrix.HEALED)
            self.assertEqual([mid], self.drain(queue), what)
        self.sweep(reschedule)

    def moving(self, repeat):
        def move(k, applied, dies):
            what = 'k=%s applied=%s dies=%s' % (k, applied, dies)
            queue, target = self.queue_made(), self.queue_made()
            ids = self.post(0, 30, queue=queue)
            acked = self.run_armed(k, applied, dies, lambda: (
                self.messages.move(queue, target, project=PROJECT,
                                   ids=ids)))
            if repeat and not acked:
                # After a lease's door that the failure left has ended
                # (Zaqar's clock stands still while the repeat waits).
                timeutils.advance_time_seconds(locks.DOOR + 1)
                self.messages.move(queue, target, project=PROJECT, ids=ids)
            timeutils.advance_time_seconds(fault_matrix.HEALED)
            left, moved = self.drain(queue), self.drain(target)
            bodies = sorted(m['body']['n'] for m in list(
                self.messages.bulk_get(queue, left, project=PROJECT)) +
                list(self.messages.bulk_get(target, moved,
                                            project=PROJECT)))
            if acked or repeat:
                self.assertEqual(([], [0, 1]), (left, bodies), what)
            else:   # never lost; perhaps in both (the bound)
                self.assertEqual([0, 1], sorted(set(bodies)), what)
        return move

    def test_a_move_repeated_after_it_failed(self):
        self.sweep(self.moving(repeat=True))

    def test_a_move_that_failed_loses_nothing(self):
        self.sweep(self.moving(repeat=False))
