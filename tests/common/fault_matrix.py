"""The fault matrix: every multi-request operation, with request k of it
failing (before it is applied, or after: a lost reply), or with the
process dying before request k (or after the last request, before its
reply: no retry, no later request), for each k.

A backend's test class names the methods that make its store requests
(``fault_target()``, ``FAULT_METHODS``) and the error a failed request
raises (``fault_error()``). Each test runs one operation once to count
its requests (n), then, on a fresh queue each time, with request k
failing for k in 1..n (``ZAQAR_DELAY_FAULT_MATRIX=full``, ``tox -e
faults``) or in a sample of them (first, middle, last: the default, to
keep within the test time budget), and checks the promises of
``doc/source/failures.rst`` (``ZAQAR_DELAY_FAULT_MATRIX_REPORT``, a file,
gets a line per operation: its requests and the cases checked):

* right after the operation, no message that a live claim holds (one
  the operation set up, or the one it acknowledged) is given to another
  claim;
* once every claim and hold has ended, each message that was posted and
  not deleted is claimable, exactly once: nothing acknowledged is lost,
  nothing stays hidden (a message not claimable is gone), nothing is
  there twice; an acknowledged delete or pop never gives its messages
  back.
"""

import os
import threading
import uuid

from oslo_utils import timeutils
from zaqar.storage import errors

from tests.common import behaviour

PROJECT = behaviour.PROJECT
# Past every claim the operations make (30 s, renewed to 60) and the
# check's own (600 s), a delete's hold (60 s) and a mongodb post's
# deadline (120 s).
HEALED = 700


class Died(BaseException):
    """The zaqar-server died at this request: nothing catches it, no
    retry runs, and no later request of the operation is made."""


class Requests:
    """Counts the calls of ``methods`` of ``target`` (threads included)
    and makes the ``fail_at``-th fail: with the store's error (which the
    driver may retry), or as a death (``Died``, and every later request
    too). ``failed`` names the method of the request that failed last."""

    def __init__(self, test, target, methods, error):
        self.calls, self.fail_at, self.applied = 0, None, False
        self.dies, self.failed = False, None
        self.error = error
        self._lock = threading.Lock()
        for name in methods:
            original = getattr(target, name)
            test.addCleanup(setattr, target, name, original)
            setattr(target, name, self._wrap(name, original))

    def _wrap(self, name, original):
        def call(*args, **kwargs):
            with self._lock:
                self.calls += 1
                failing = self.calls == self.fail_at
                if failing:
                    self.failed = name
                dead = (self.dies and self.fail_at is not None and
                        self.calls > self.fail_at)
            if dead:
                raise Died()
            if not failing:
                return original(*args, **kwargs)
            if self.applied:
                original(*args, **kwargs)
            raise Died() if self.dies else self.error
        return call

    def arm(self, fail_at=None, applied=False, dies=False):
        with self._lock:
            self.calls, self.fail_at, self.applied = 0, fail_at, applied
            self.dies = dies
            if fail_at is not None:
                self.failed = None


def sweep(requests, points, reads, run):
    """``run(k, applied, dies)`` with request k, for each k of
    ``points``, failing before it is applied, then after it, then with
    a death before it; the number of runs. A read that fails after it
    is applied fails as it does before (it changed nothing): when the
    request that failed at k is one of ``reads`` (method names), the
    run after it is left out."""
    runs = 0
    for k in points:
        run(k, False, False)
        runs += 1
        if requests.failed not in reads:
            run(k, True, False)
            runs += 1
    for k in points:
        run(k, False, True)
        runs += 1
    return runs


class Case:
    """One operation on a fresh queue: set up, run, what it acknowledged."""

    def __init__(self, test):
        self.test = test
        self.queue = 'f-' + uuid.uuid4().hex[:8]
        test.queues.create(self.queue, project=PROJECT)
        self.ids = []           # posted (set-up and acknowledged posts)
        self.held = set()       # held by a live claim once it has run
        self.gone = set()       # deleted by an acknowledged operation
        self.acked = False
        self.dlq = None         # a dead-letter queue to look into too
        self.recover = None     # what an operator reruns after a failure

    def post(self, *delays):
        ids = self.test.post(*delays, queue=self.queue)
        self.ids.extend(ids)
        return ids

    def claim(self, limit=10, ttl=30):
        return self.test.claim(limit=limit, ttl=ttl, queue=self.queue)


class FaultMatrix(behaviour.Helpers):
    """The matrix; mixed into a backend's storage test base."""

    FAULT_METHODS = ()
    FAULT_READS = ()        # those of FAULT_METHODS that change nothing

    def fault_target(self):
        raise NotImplementedError

    def fault_error(self):
        raise NotImplementedError

    def upstream_driver(self):
        """Upstream's data driver on the same store."""
        raise NotImplementedError

    def dead_letter_queue(self, queue):
        """A name for ``queue``'s dead-letter queue."""
        return queue + '-dlq'

    def migrate(self, queue):
        """Index ``queue`` for the delay driver (``manage migrate``)."""
        raise NotImplementedError

    def setUp(self):
        super().setUp()
        self.requests = Requests(self, self.fault_target(),
                                 self.FAULT_METHODS, self.fault_error())

    # The operations: (set up a Case, then run the operation on it).

    def op_post(self, case):
        def run():
            case.post(0, 30)
        return run

    def op_claim(self, case):
        case.post(0, 0, 0)

        def run():
            _, ids = case.claim(limit=3)
            case.held.update(ids)
        return run

    def op_renew(self, case):
        case.post(0)
        claim_id, ids = case.claim()
        case.held.update(ids)       # held by the old claim or renewed
        return lambda: self.claims.update(
            case.queue, claim_id, {'ttl': 60, 'grace': 0}, project=PROJECT)

    def op_release(self, case):
        case.post(0)
        claim_id, ids = case.claim()
        return lambda: self.claims.delete(case.queue, claim_id,
                                          project=PROJECT)

    def op_delete_claimed(self, case):
        (mid,) = case.post(0)
        claim_id, _ = case.claim()

        def run():
            self.messages.delete(case.queue, mid, project=PROJECT,
                                 claim=claim_id)
            case.gone.add(mid)
        return run

    def op_delete(self, case):
        (mid,) = case.post(0)
        return self._deleting(case, mid)

    def _deleting(self, case, mid):
        def run():
            self.messages.delete(case.queue, mid, project=PROJECT)
            case.gone.add(mid)
        return run

    def op_delete_after_its_claim(self, case):
        # The claim ended, its entry not read yet: a delete without a
        # claim holds the message's lock while the entry is the only
        # thing left to find the message by.
        (mid,) = case.post(0)
        case.claim(ttl=30)
        timeutils.advance_time_seconds(31)
        return self._deleting(case, mid)

    def op_bulk_delete(self, case):
        ids = case.post(0, 0)

        def run():
            self.messages.bulk_delete(case.queue, ids, project=PROJECT)
            case.gone.update(ids)
        return run

    def op_pop(self, case):
        case.post(0, 0)

        def run():
            popped = self.messages.pop(case.queue, 2, project=PROJECT)
            case.gone.update(msg['id'] for msg in popped)
        return run

    def op_promotion(self, case):
        case.post(10)
        timeutils.advance_time_seconds(11)
        return lambda: case.held.update(case.claim(limit=1, ttl=30)[1])

    def op_dead_letter(self, case):
        case.dlq = self.dead_letter_queue(case.queue)
        self.queues.create(case.dlq, project=PROJECT)
        self.queues.set_metadata(case.queue, {
            '_max_claim_count': 1, '_dead_letter_queue': case.dlq},
            project=PROJECT)
        case.post(0, 0)
        case.claim(ttl=30)
        timeutils.advance_time_seconds(31)
        # Claimed a second time: both move to the dead-letter queue.
        return lambda: case.held.update(case.claim(ttl=30)[1])

    def op_migrate(self, case):
        # Upstream swift's claims end by Swift's clock (x-delete-after):
        # back to the real time, which earlier cases left behind.
        timeutils.set_time_override()
        upstream = self.upstream_driver()
        post = upstream.message_controller.post
        for delay in (0, 0, 30):
            case.ids.extend(post(case.queue, [{
                'ttl': 3600, 'body': delay, 'delay': delay}],
                behaviour.CLIENT, PROJECT))
        _, claimed = upstream.claim_controller.create(
            case.queue, {'ttl': 30, 'grace': 0}, PROJECT, limit=1)
        case.held.update(msg['id'] for msg in claimed)
        case.recover = lambda: self.migrate(case.queue)
        return case.recover

    # The matrix.

    def count(self, operation):
        case = Case(self)
        run = operation(case)
        self.requests.arm()
        run()
        return self.requests.calls

    def points(self, n):
        if os.environ.get('ZAQAR_DELAY_FAULT_MATRIX') == 'full':
            return range(1, n + 1)
        return sorted({1, (n + 1) // 2, n})

    def check(self, operation):
        n = self.count(operation)
        self.assertGreater(n, 0)
        # Request k fails with the store's error before it is applied or
        # after (a lost reply); the process dies before request k, or
        # after the last one (before it replies).
        cases = sweep(self.requests, self.points(n), self.FAULT_READS,
                      lambda k, applied, dies: self.check_one(
                          operation, k, applied, dies))
        self.check_one(operation, n, True, True)
        report = os.environ.get('ZAQAR_DELAY_FAULT_MATRIX_REPORT')
        if report:      # a line per operation: requests, cases checked
            with open(report, 'a') as f:
                f.write('%s %s requests=%d cases=%d\n' % (
                    type(self).__name__, operation.__name__[3:], n,
                    cases + 1))
        return n

    def check_one(self, operation, k, applied, dies=False):
        what = '%s, %s %s request %d' % (
            operation.__name__, 'dying' if dies else 'failing',
            'after' if applied else 'before', k)
        case = Case(self)
        run = operation(case)
        self.requests.arm(k, applied, dies)
        try:
            run()
            case.acked = True
        except (Exception, Died):
            pass
        self.requests.arm()
        if case.recover and not case.acked:
            case.recover()
        # No message a live claim holds goes to another claim (this
        # claim ends before HEALED).
        _, ids = case.claim(limit=20, ttl=600)
        self.assertEqual(set(), case.held & set(ids), what)
        # Once every claim and hold has ended: each message once. A
        # claim that comes back short took every claimable message.
        timeutils.advance_time_seconds(HEALED)
        found = []
        for queue in filter(None, (case.queue, case.dlq)):
            while True:
                _, ids = self.claim(limit=20, ttl=600, queue=queue)
                found.extend(ids)
                if len(ids) < 20:
                    break
        self.assertEqual(len(found), len(set(found)), what)
        expected = set(case.ids) - case.gone
        if case.acked or operation.__name__ not in (
                'op_delete', 'op_delete_claimed', 'op_bulk_delete',
                'op_pop', 'op_delete_after_its_claim'):
            # Nothing acknowledged lost, nothing hidden.
            self.assertEqual(expected, set(found) & expected, what)
        self.assertEqual(set(), set(found) & case.gone, what)
        for mid in expected - set(found):   # deleted, not hidden
            self.assertRaises(errors.MessageDoesNotExist, self.messages.get,
                              case.queue, mid, project=PROJECT)
        if operation.__name__ != 'op_post' or case.acked:
            self.assertEqual(set(), set(found) - set(case.ids), what)

    def test_post(self):
        self.check(self.op_post)

    def test_claim(self):
        self.check(self.op_claim)

    def test_renew(self):
        self.check(self.op_renew)

    def test_release(self):
        self.check(self.op_release)

    def test_delete_with_a_claim(self):
        self.check(self.op_delete_claimed)

    def test_delete_without_a_claim(self):
        self.check(self.op_delete)

    def test_delete_without_a_claim_after_its_claim_ended(self):
        self.check(self.op_delete_after_its_claim)

    def test_bulk_delete(self):
        self.check(self.op_bulk_delete)

    def test_pop(self):
        self.check(self.op_pop)

    def test_promotion(self):
        self.check(self.op_promotion)

    def test_dead_letter_move(self):
        self.check(self.op_dead_letter)

    def test_migrate(self):
        self.check(self.op_migrate)
