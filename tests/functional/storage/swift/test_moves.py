"""``move`` on ``swift.delay``: messages into another queue of the
project under new ids, each in exactly one of the two (doc/source/
swift.rst, "Reschedules and moves")."""

import uuid

from oslo_utils import timeutils
from zaqar.storage import errors

from tests.common import behaviour
from tests.fixtures import swift_store
from zaqar_delay import delay
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import upstream

PROJECT = behaviour.PROJECT


class SwiftMoveTest(behaviour.Helpers, swift_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.target = 't-' + uuid.uuid4().hex[:8]
        self.queues.create(self.target, project=PROJECT)
        self.now = timeutils.utcnow_ts(True)

    def move(self, **kwargs):
        return self.messages.move(self.queue, self.target, project=PROJECT,
                                  **kwargs)

    def expiry(self, queue, mid):
        return int(self.driver.connection.head_object(
            upstream.message_container(queue, PROJECT), mid)['x-delete-at'])

    def in_target(self, **kwargs):
        return {m['id']: m for m in next(self.messages.list(
            self.target, project=PROJECT, echo=True, include_delayed=True,
            **kwargs))}

    def test_by_ids_keeping_body_ttl_age_and_expiry(self):
        held, waiting, ready = self.post(0, 600, 0, ttl=1200)
        claim_id, _ = self.claim(limit=1)   # the oldest: held
        self.assertEqual(claim_id, self.index(self.queue).lock_of(
            held).holder)
        expires = self.expiry(self.queue, waiting)
        moved = self.move(ids=[held, waiting, ready, 'x'])
        self.assertEqual([waiting, ready], [old for old, _ in moved])
        copies = dict(moved)
        found = self.in_target()
        self.assertEqual(set(copies.values()), set(found))
        copy = found[copies[waiting]]
        self.assertEqual(({'n': 1}, 1200, 0, self.now),
                         (copy['body'], copy['ttl'], copy['claim_count'],
                          copy.due))
        self.assertEqual(expires, self.expiry(self.target, copies[waiting]))
        # The posting time (age) is kept: the copy's id has its time.
        self.assertEqual(waiting[:16], copies[waiting][:16])
        self.assertNotEqual(waiting, copies[waiting])
        self.assertEqual([held], self.list_ids(include_claimed=True)[0])
        for kind in (idx.READY, idx.WAITING, idx.DUE):
            self.assertEqual([], self.index(self.queue).names(kind))
        self.assertEqual(sorted(copies.values()),
                         sorted(self.claim(queue=self.target)[1]))

    def index(self, queue):
        return self.messages.index(queue, PROJECT)

    def test_the_first_by_posting_order_due_later(self):
        ids = self.post(0, 0, 600, 0)
        self.claim(limit=1)
        moved = self.move(limit=2, delay=300)
        self.assertEqual(ids[1:3], [old for old, _ in moved])
        due = delay.due_at(self.now, 300)
        self.assertEqual({due}, {m.due for m in self.in_target().values()})
        timeutils.advance_time_seconds(299)
        self.assertEqual([], self.claim(queue=self.target)[1])
        timeutils.advance_time_seconds(1)
        self.assertEqual(sorted(new for _, new in moved),
                         self.claim(queue=self.target)[1])
        self.assertEqual([ids[3]], [old for old, _ in self.move(limit=5)])

    def test_a_message_whose_claim_ended_moves_unclaimed(self):
        (mid,) = self.post(0)
        self.claim(ttl=30)
        timeutils.advance_time_seconds(31)
        ((_, new),) = self.move(ids=[mid])
        self.assertEqual(0, self.in_target()[new]['claim_count'])
        self.assertEqual([new], self.claim(queue=self.target)[1])
        self.assertEqual([], self.claim()[1])

    def test_a_repeated_move_moves_nothing_twice(self):
        ids = self.post(0, 0)
        first = self.move(ids=ids)
        self.assertEqual(ids, [old for old, _ in first])
        self.assertEqual([], self.move(ids=ids + ids))
        self.assertEqual(2, len(self.in_target()))
        # The same ids the same way: a copy's id is derived from its
        # original's.
        self.assertEqual([new for _, new in first], [
            idtime.derived(mid, 0, self.queue, PROJECT) for mid in ids])

    def test_refusals(self):
        (mid,) = self.post(0)
        for queue, target in ((self.queue, 'nowhere'),
                              ('nowhere', self.target)):
            self.assertRaises(errors.QueueDoesNotExist, self.messages.move,
                              queue, target, project=PROJECT, ids=[mid])
        self.queues.create(self.queue, project='elsewhere')
        self.queues.create(self.target, project='elsewhere')
        self.assertEqual([], self.messages.move(
            self.queue, self.target, project='elsewhere', ids=[mid]))
        self.assertEqual([mid], self.list_ids()[0])

    def test_history_on_both_sides(self):
        for queue in (self.queue, self.target):
            self.queues.set_metadata(queue, {'_history_ttl': 3600},
                                     project=PROJECT)
        (mid,) = self.post(0)
        ((_, new),) = self.move(ids=[mid], delay=60)
        source = history.read(self.driver.connection, self.queue, PROJECT)
        self.assertEqual([('posted', mid), ('moved', mid)],
                         [(e.kind, e.message_id) for e in source])
        self.assertEqual({'to': self.target, 'as': new}, source[-1].fields)
        (posted,) = history.read(self.driver.connection, self.target,
                                 PROJECT)
        self.assertEqual(('posted', new, mid, '%.3f' % delay.due_at(
            self.now, 60)), (posted.kind, posted.message_id,
                             posted.fields['from'], posted.fields['due']))

    def test_pending_pushes_follow(self):
        self.driver.pushes = True
        (mid,) = self.post(60)
        ((_, new),) = self.move(ids=[mid], delay=600)
        pending = [(p['queue'], p['message_id'], p['at'])
                   for p in self.driver.push_store.pending(1000)
                   if p['queue'] in (self.queue, self.target)]
        self.assertEqual([(self.target, new, delay.due_at(self.now, 600))],
                         pending)

    def test_racing_claims_a_message_is_moved_or_claimed(self):
        ids = self.post(*[0] * 16)
        moved = []

        def moves():
            for mid in reversed(ids):
                moved.extend(self.move(ids=[mid]))

        claimed = self.racing_claims(moves)
        claimed += self.drain(limit=10, ttl=3000)    # what neither took
        self.assertEqual(len(claimed), len(set(claimed)))
        self.assertEqual(set(), {old for old, _ in moved} & set(claimed))
        self.assertEqual(set(ids), {old for old, _ in moved} | set(claimed))
        self.assertEqual({new for _, new in moved}, set(self.in_target()))
