"""``swift.delay``'s pending pushes: entries in a store-wide container,
leased with a create-only lock; and pushes through a real zaqar-server.
"""

import testtools
from oslo_utils import timeutils

from tests.common import due_time
from tests.common import push_delivery as delivery
from tests.common import push_faults as faults
from tests.common import pushes as common_pushes
from tests.fixtures import swift_store
from zaqar_delay import pending
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import pushes

PROJECT = common_pushes.PROJECT


class SwiftPushesTest(common_pushes.PendingPushes,
                      swift_store.DelayTestBase):
    # Upstream's container names hold the project: Swift answers 404 to
    # a container PUT whose name has a '/' (project 'x/y:z').
    names = (('orders.eu', 'p.1'), ('a.b.c-_', 'x.y:z'),
             ('q' * 64, 'a.b.c.d:e'))

    def test_a_failed_push_older_than_the_retention_is_dropped(self):
        # Swift drops a record at its own X-Delete-At, set when written.
        now = timeutils.utcnow_ts()
        record = dict(zip(pending.FAILED_FIELDS, (
            'k1', 'm1', 'q', PROJECT, 'http://h/x', 404, 1, 'refused', now)))
        self.store.fail(record, 3600)
        (name,) = [o['name'] for o in self.driver.connection.get_container(
            pushes.FAILED)[1]]
        headers = self.driver.connection.head_object(pushes.FAILED, name)
        self.assertEqual(str(now + 3600), headers['x-delete-at'])

    def setUp(self):
        super().setUp()
        # On a whole second: the swift tests below count in seconds.
        timeutils.set_time_override(
            timeutils.utcnow().replace(microsecond=0))
        self._empty()
        self.addCleanup(self._empty)

    def _empty(self):
        client = self.driver.connection
        for container in (pushes.PENDING, pushes.LEASES, pushes.FAILED):
            idx.Index(client, 'q', PROJECT)._empty(container)

    def test_a_stale_listing_does_not_push_twice(self):
        """A dispatcher that listed an entry another then took and made
        finds it gone once it wins the lease, and leaves it."""
        (mid,) = self.post(2)
        now = timeutils.utcnow_ts() + 2
        (listed,) = self.store._names(idx.due_until(now), 10)
        (first,) = self.store.take(now, 10, 30)
        self.store.done([first])
        self.assertFalse(self.store._delete(listed))
        self.store._names = lambda end_marker, limit: [listed]
        self.assertEqual([], self.store.take(now, 10, 30))

    def test_a_listing_behind_a_take_lists_the_push_once(self):
        # A take writes the push's entry at its lease's end, then deletes
        # the old one; a listing Swift has not updated yet shows both.
        (mid,) = self.post(2)
        now = timeutils.utcnow_ts(True) + 2
        (listed,) = self.store._names(idx.due_until(now), 10)
        (taken,) = self.store.take(now, 10, 30)
        both = [listed, taken.handle[0]]
        self.store._names = lambda end_marker, limit: both
        (found,) = self.store.pending(10)
        self.assertEqual(mid, found['message_id'])
        self.assertEqual(round(now + 30, 3), round(found['at'], 3))

    def test_whole_second_entries_of_earlier_versions_come_due_in_order(self):
        old, new = self.post(60, 1)
        now = timeutils.utcnow_ts()
        (entry,) = [n for n in self.store._names(None, 10) if old in n]
        _, expires, held = idx.untimed(entry)
        pushes._put(self.driver.connection,
                    '%010d.%010d.%s' % (now + 1, expires, held), expires)
        self.store._delete(entry)
        self.assertEqual([], self.store.take(now + 0.999, 10, 30))
        taken = self.store.take(now + 1, 10, 30)
        self.assertEqual([(old, now + 1), (new, now + 1)],
                         [(p.message_id, p.due) for p in taken])
        self.store.done(taken)
        self.assertIsNone(self.store.next_due())

    def test_an_old_lease_does_not_end_a_new_one(self):
        self.post(2)
        now = timeutils.utcnow_ts()
        (old,) = self.store.take(now + 2, 10, 30)
        (new,) = self.store.take(now + 32, 10, 30)
        self.store.done([old])
        self.assertEqual(now + 32 + 30, self.store.next_due())
        # The new holder's lease is still there: nobody else takes it.
        self.assertEqual([], self.store.take(now + 33, 10, 30))
        self.store.done([new])
        self.assertIsNone(self.store.next_due())

    def test_two_dispatchers_take_each_push_once(self):
        ids = self.post(*[1] * 6)
        now = timeutils.utcnow_ts() + 1
        first = self.store.take(now, 4, 30)
        second = self.store.take(now, 4, 30)
        self.assertEqual((4, 2), (len(first), len(second)))
        self.assertEqual(sorted(ids),
                         sorted(p.message_id for p in first + second))


class SwiftInServerPushTest(delivery.InServerPushes, testtools.TestCase):
    store = 'swift.delay'


class SwiftNeverEarlyTest(due_time.NeverEarly, testtools.TestCase):
    store = 'swift.delay'


class SwiftDispatcherProcessTest(delivery.DispatcherProcesses,
                                 testtools.TestCase):
    store = 'swift.delay'


class SwiftDispatcherDeathTest(delivery.DispatcherDeath,
                               testtools.TestCase):
    store = 'swift.delay'
    # Above what taking and forgetting 20 pushes costs on this Swift (a
    # listing and four requests per push, then two): a 3 s lease ran
    # out before the second dispatcher's done, and a third push came;
    # with 10 s, attempts may start until 5 s after the take began, and
    # a loaded machine's take of 20 outlasted that (they were recorded
    # failed).
    lease = 20


class SwiftDeathMidRetryTest(delivery.DispatcherDeathMidRetry,
                             testtools.TestCase):
    store = 'swift.delay'


class SwiftPooledPushTest(delivery.InServerPushes, testtools.TestCase):
    store = 'swift.delay'
    pooled = True


class SwiftSubscriberFaultsTest(faults.SubscriberFaults,
                                testtools.TestCase):
    store = 'swift.delay'
    # Taking 20 pushes here outlasted half of a 6 s lease: the healthy
    # subscriber's attempts were then out of the lease (recorded failed).
    lease = 15
    # Upstream's container names hold the project: no '/' on Swift.
    project = 'tenant.a:c'


class SwiftFailedPushesTest(faults.FailedPushes, testtools.TestCase):
    store = 'swift.delay'
    project = 'tenant.a:c'
