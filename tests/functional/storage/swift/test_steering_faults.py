"""``swift.delay`` reschedules and moves whose zaqar-server dies between
two of their requests: nothing lost, nothing claimable before its due
time, and a repeat of the move finishes it (doc/source/swift.rst,
"Reschedules and moves")."""

import uuid

from oslo_utils import timeutils

from tests.common import behaviour
from tests.common import fault_matrix
from tests.common import pushes as pushes_common
from tests.fixtures import swift_store
from zaqar_delay import delay
from zaqar_delay import pending
from zaqar_delay.storage.swift import holds
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import pushes

PROJECT = behaviour.PROJECT
METHODS = ('get_object', 'head_object', 'put_object', 'post_object',
           'delete_object', 'get_container')


class Dies:
    """From the first request of ``client`` that ``when(method, container,
    name)`` matches (that one included), every request raises
    ``fault_matrix.Died``: the zaqar-server died there. ``revive`` ends
    it (another zaqar-server goes on)."""

    def __init__(self, test, client, when):
        self.when, self.dead, self.alive = when, False, False
        for method in METHODS:
            original = getattr(client, method)
            test.addCleanup(setattr, client, method, original)
            setattr(client, method, self._wrap(method, original))

    def _wrap(self, method, original):
        def call(*args, **kwargs):
            if not self.alive:
                self.dead = self.dead or self.when(method, *args[:2])
                if self.dead:
                    raise fault_matrix.Died()
            return original(*args, **kwargs)
        return call

    def revive(self):
        self.alive = True


def writes(kind, queue):
    """A ``when`` for ``Dies``: a PUT into the ``kind`` container of
    ``queue`` (``message`` for the messages')."""
    prefix = ('zaqar_message:' if kind == 'message' else
              'zaqar_delay_%s:' % kind) + queue + ':'
    return lambda method, container, *name: (
        method == 'put_object' and container.startswith(prefix))


def deletes(kind, queue):
    prefix = ('zaqar_message:' if kind == 'message' else
              'zaqar_delay_%s:' % kind) + queue + ':'
    return lambda method, container, *name: (
        method == 'delete_object' and container.startswith(prefix))


class SwiftRescheduleDiesTest(behaviour.Helpers, swift_store.DelayTestBase):

    def dies(self, when):
        return Dies(self, self.driver.connection, when)

    def reschedule_dying(self, mid, when, **asked):
        died = self.dies(when)
        self.assertRaises(fault_matrix.Died, self.messages.reschedule,
                          self.queue, mid, project=PROJECT, **asked)
        self.assertTrue(died.dead)
        died.revive()

    def test_dying_before_its_content_leaves_it_as_it_was(self):
        (mid,) = self.post(0)
        self.reschedule_dying(mid, writes('waiting', self.queue), delay=600)
        self.assertEqual([], self.claim(ttl=30)[1])     # held
        timeutils.advance_time_seconds(holds.HOLD + 1)
        found = self.messages.get(self.queue, mid, project=PROJECT)
        self.assertLess(found.due, timeutils.utcnow_ts(True))
        self.assertEqual([mid], self.claim(ttl=30)[1])

    def test_dying_after_its_content_never_comes_early(self):
        # Its ready entry is left: the claims that find it by it pass it
        # over until its new due time.
        (mid,) = self.post(0)
        self.reschedule_dying(mid, deletes('ready', self.queue), delay=600)
        now = timeutils.utcnow_ts(True)
        self.assertEqual(delay.due_at(now, 600), self.messages.get(
            self.queue, mid, project=PROJECT).due)
        timeutils.advance_time_seconds(holds.HOLD + 1)
        self.assertEqual([], self.claim(ttl=30)[1])
        timeutils.advance_time_seconds(600 - holds.HOLD - 1)
        self.assertEqual([mid], self.claim(ttl=30)[1])

    def test_dying_while_held_leaves_a_message_of_an_ended_claim_findable(
            self):
        # The claim's entry is read while the reschedule's hold lives:
        # promotion gives the message back under it.
        (mid,) = self.post(0)
        self.claim(ttl=30)
        timeutils.advance_time_seconds(31)
        self.reschedule_dying(mid, writes('due', self.queue), delay=600)
        self.assertEqual([], self.claim(ttl=30)[1])     # reads the entry
        timeutils.advance_time_seconds(holds.HOLD + 1)
        self.assertEqual([mid], self.claim(ttl=30)[1])


class SwiftMoveDiesTest(behaviour.Helpers, swift_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.target = 't-' + uuid.uuid4().hex[:8]
        self.queues.create(self.target, project=PROJECT)

    def move(self, ids):
        return self.messages.move(self.queue, self.target, project=PROJECT,
                                  ids=ids)

    def move_dying(self, ids, when):
        died = Dies(self, self.driver.connection, when)
        self.assertRaises(fault_matrix.Died, self.move, ids)
        self.assertTrue(died.dead)
        died.revive()

    def bodies(self, queue, ids):
        return sorted(m['body']['n'] for m in self.messages.bulk_get(
            queue, ids, project=PROJECT))

    def test_dying_after_the_copy_leaves_the_original_alone_claimable(self):
        ids = self.post(0, 30)
        self.move_dying(ids, writes('ready', self.target))
        timeutils.advance_time_seconds(holds.HOLD + 1)
        self.assertEqual([], self.drain(self.target))
        self.assertEqual(ids, self.drain(self.queue))

    def test_dying_before_the_original_goes_and_the_repeat(self):
        ids = self.post(0, 30)
        self.move_dying(ids, deletes('message', self.queue))
        moved = self.move(ids)
        self.assertEqual(ids, [old for old, _ in moved])
        timeutils.advance_time_seconds(holds.HOLD + 1)
        self.assertEqual([], self.drain(self.queue))
        copies = self.drain(self.target)
        self.assertEqual(sorted(new for _, new in moved), sorted(copies))
        self.assertEqual([0, 1], self.bodies(self.target, copies))

    def test_without_the_repeat_it_is_in_both_once_the_hold_ends(self):
        ids = self.post(0)
        self.move_dying(ids, deletes('message', self.queue))
        self.assertEqual([], self.drain(self.queue))    # held
        self.assertEqual(1, len(self.drain(self.target)))
        timeutils.advance_time_seconds(holds.HOLD + 1)
        self.assertEqual(ids, self.drain(self.queue))

    def test_a_repeat_waits_for_a_lease_left_with_the_holds(self):
        # Died ending the shard's lease, its locks written: the repeat
        # tries the lease again until it ends (Zaqar's clock runs here),
        # its own holds being no reason to stop.
        timeutils.clear_time_override()
        ids = self.post(0)
        self.move_dying(ids, deletes('lease', self.queue))
        self.assertEqual(ids, [old for old, _ in self.move(ids)])
        self.assertEqual([], self.messages.index(
            self.queue, PROJECT).names(idx.READY))

    def test_a_repeat_after_a_copy_without_its_entries(self):
        ids = self.post(0)
        self.move_dying(ids, writes('ready', self.target))
        self.assertEqual(ids, [old for old, _ in self.move(ids)])
        timeutils.advance_time_seconds(holds.HOLD + 1)
        self.assertEqual([], self.drain(self.queue))
        self.assertEqual(1, len(self.drain(self.target)))


class SwiftMoveDiesWithPushesTest(pushes_common.WithPushes,
                                  SwiftMoveDiesTest):
    """A move whose server died between writing a copy and recording its
    pending push: the repeat records it."""

    def pending(self, mid):
        return [name for name in (o['name'] for o in self.driver.connection
                                  .get_container(pushes.PENDING)[1])
                if pending.name(mid, self.target, PROJECT) in name]

    def test_a_repeat_records_the_push_of_a_copy_made_before(self):
        ids = self.post(0)
        self.move_dying(ids, lambda method, container, *name: (
            method == 'put_object' and container == pushes.PENDING))
        (old, new), = self.move(ids)
        self.assertEqual(ids, [old])
        self.assertEqual(1, len(self.pending(new)), self.pending(new))
