"""Due times on every message, reschedule and move on ``mongodb.delay``
and ``mongodb.fifo.delay``, with Zaqar's clock frozen on a millisecond
(``tests/common/waiting_control.py`` runs them through a zaqar-server).
"""

import datetime

from bson import objectid
from oslo_utils import timeutils
from zaqar.storage import errors

from tests.common import behaviour
from tests.common import pushes
from tests.fixtures import mongodb_store
from zaqar_delay import delay
from zaqar_delay import errors as delay_errors
from zaqar_delay import retry
from zaqar_delay.storage import message
from zaqar_delay.storage.mongodb import driver
from zaqar_delay.storage.mongodb import history

PROJECT = behaviour.PROJECT


class SteeringTest(pushes.WithPushes, behaviour.Helpers,
                   mongodb_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.now = timeutils.utcnow_ts(microsecond=True)
        self.target = 't-' + self.queue
        self.queues.create(self.target, project=PROJECT)

    def at(self, seconds):
        """Zaqar's clock ``seconds`` after the frozen start."""
        timeutils.set_time_override(datetime.datetime.fromtimestamp(
            self.now + seconds, tz=datetime.timezone.utc).replace(
                tzinfo=None))

    def doc(self, mid, queue=None):
        return self.messages.collection(queue or self.queue, PROJECT
                                        ).find_one(
            {'_id': objectid.ObjectId(mid)})

    def pending(self):
        return {p['message_id']: p['at'] for p in
                self.driver.push_store.pending(100)}

    def reschedule(self, mid, queue=None, **when):
        return self.messages.reschedule(queue or self.queue, mid,
                                        project=PROJECT, **when)

    def move(self, ids=None, limit=None, **when):
        return self.messages.move(self.queue, self.target, project=PROJECT,
                                  ids=ids, limit=limit, **when)

    # every message with its due time

    def test_every_message_returned_has_its_due_time(self):
        ready, waiting = self.post(0, 30)
        now = round(self.now, 3)
        got = self.messages.get(self.queue, waiting, project=PROJECT)
        self.assertIsInstance(got, message.Message)
        self.assertEqual(now + 30, got.due)
        self.assertEqual({ready: now, waiting: now + 30}, {
            m['id']: m.due for m in self.messages.bulk_get(
                self.queue, [ready, waiting], project=PROJECT)})
        page = next(self.messages.list(self.queue, project=PROJECT,
                                       include_delayed=True, echo=True))
        self.assertEqual([now, now + 30], [m.due for m in page])
        claim_id, (claimed,) = self.claims.create(
            self.queue, {'ttl': 60, 'grace': 0}, project=PROJECT)
        self.assertEqual(now, claimed.due)
        _, (read,) = self.claims.get(self.queue, claim_id, project=PROJECT)
        self.assertEqual((ready, now), (read['id'], read.due))
        self.assertEqual(set(read), set(claimed))   # upstream's keys
        self.at(30)
        (popped,) = self.messages.pop(self.queue, 1, project=PROJECT)
        self.assertEqual((waiting, now + 30), (popped['id'], popped.due))

    def test_a_due_time_on_post_is_kept_to_the_ms_rounded_up(self):
        asked = self.now + 12.3454
        (mid,) = self.messages.post(self.queue, [
            {'ttl': 60, 'body': 1, delay.DUE: asked}], behaviour.CLIENT,
            project=PROJECT)
        due = delay.due_at(asked, 0)    # not at 12.345 s: early
        stored = self.messages.collection(self.queue, PROJECT).find_one()
        self.assertEqual(due, stored['d'])
        self.at(due - self.now - 0.001)
        self.assertEqual([], self.claim()[1])
        self.at(due - self.now)
        self.assertEqual([mid], self.claim()[1])
        self.assertEqual(due, self.messages.get(self.queue, mid,
                                                project=PROJECT).due)

    def test_a_due_time_past_is_due_at_the_post(self):
        (mid,) = self.messages.post(self.queue, [
            {'ttl': 60, 'body': 1, delay.DUE: self.now - 100}],
            behaviour.CLIENT, project=PROJECT)
        self.assertEqual(delay.floor_ms(self.now), self.messages.get(
            self.queue, mid, project=PROJECT).due)
        self.assertEqual([mid], self.claim()[1])

    # reschedule

    def test_reschedule_later_then_now_keeping_id_body_and_expiry(self):
        (mid,) = self.post(0)
        before = self.doc(mid)
        found = self.reschedule(mid, delay=20)
        self.assertEqual((mid, {'n': 0}, round(self.now, 3) + 20),
                         (found['id'], found['body'], found.due))
        after = self.doc(mid)
        self.assertEqual((before['e'], before['t'], before['k']),
                         (after['e'], after['t'], after['k']))
        self.at(19.999)
        self.assertEqual([], self.claim()[1])
        self.assertEqual(1, self.stats_of(self.queue, PROJECT)['delayed'])
        self.assertEqual([self.now + 20], list(self.pending().values()))
        found = self.reschedule(mid, due=self.now - 5)
        self.assertEqual(delay.floor_ms(self.now + 19.999), found.due)
        self.assertEqual([mid], self.claim()[1])

    def test_a_reschedule_to_a_due_time_is_exact_to_the_ms(self):
        (mid,) = self.post(5)
        asked = self.now + 40.0004
        self.assertEqual(delay.due_at(asked, 0),
                         self.reschedule(mid, due=asked).due)
        self.at(40)
        self.assertEqual([], self.claim()[1])
        self.at(40.001)
        self.assertEqual([mid], self.claim()[1])

    def test_reschedule_refusals_change_nothing(self):
        held, free = self.post(0, 0)
        self.claim(limit=1)
        before = self.doc(held)
        self.assertRaises(errors.MessageIsClaimed, self.reschedule, held,
                          delay=5)
        self.assertEqual(before, self.doc(held))
        for unknown in (str(objectid.ObjectId()), 'not-an-id'):
            self.assertRaises(errors.MessageDoesNotExist, self.reschedule,
                              unknown, delay=5)
        self.assertRaises(errors.MessageDoesNotExist, self.messages
                          .reschedule, self.target, free, project=PROJECT,
                          delay=5)
        self.queues.create(self.queue, project='other')
        self.assertRaises(errors.MessageDoesNotExist, self.messages
                          .reschedule, self.queue, free, project='other',
                          delay=5)
        self.assertRaises(errors.QueueDoesNotExist, self.messages
                          .reschedule, 'nope', free, project=PROJECT,
                          delay=5)
        before = self.doc(free)
        error = self.assertRaises(delay_errors.Refused, self.reschedule,
                                  free, delay=3600)
        self.assertIn('before its new due time', str(error))
        self.assertEqual(before, self.doc(free))

    def test_a_message_whose_claim_ended_is_taken_out_of_it(self):
        self.queues.set_metadata(self.queue, {retry.KEY: {'initial': 50}},
                                 project=PROJECT)
        (mid,) = self.post(0)
        claim_id, _ = self.claim(ttl=30)
        self.at(31)
        found = self.reschedule(mid, delay=2)
        self.assertIsNone(found['claim_id'])
        self.assertNotIn('b', self.doc(mid)['c'])     # its backoff dropped
        self.at(32.999)
        self.assertEqual([], self.claim()[1])
        self.at(33)
        self.assertEqual([mid], self.claim()[1])

    def test_a_reschedule_is_recorded_in_the_history(self):
        self.queues.set_metadata(self.queue, {'_history_ttl': 600},
                                 project=PROJECT)
        (mid,) = self.post(0)
        self.reschedule(mid, delay=9)
        kept = history.History(self.driver)
        (last,) = [e for e in kept.events(self.queue, PROJECT)
                   if e.kind == 'rescheduled']
        self.assertEqual(str(round(self.now, 3) + 9), last.fields['due'])

    def test_a_reschedule_racing_claims_is_never_both(self):
        ids = self.post(*[0] * 30)
        rescheduled = set()

        def reschedules():
            for mid in ids:
                try:
                    self.reschedule(mid, delay=600)
                    rescheduled.add(mid)
                except errors.MessageIsClaimed:
                    pass

        claimed = set(self.racing_claims(reschedules, claimers=3, limit=2,
                                         ttl=600, pause=0))
        self.assertEqual(set(), rescheduled & claimed)
        self.assertEqual(set(ids), rescheduled | claimed)

    # move

    def moved_bodies(self):
        return {m['body']['n']: m for m in next(self.messages.list(
            self.target, project=PROJECT, include_delayed=True,
            echo=True))}

    def test_move_by_ids_keeps_body_ttl_and_expiry_under_new_ids(self):
        ids = self.post(0, 30, 0)
        claim_id, _ = self.claim(limit=1)       # ids[0]: not moved
        self.claims.update(self.queue, claim_id, {'ttl': 60, 'grace': 0},
                           project=PROJECT)
        before = self.doc(ids[1])
        pairs = self.move(ids=[ids[1], ids[0], 'x', ids[2]], delay=7)
        self.assertEqual([ids[1], ids[2]], [old for old, _ in pairs])
        new = dict(pairs)[ids[1]]
        copy = self.doc(new, self.target)
        self.assertEqual((before['b'], before['t'], before['e'], 0),
                         (copy['b'], copy['t'], copy['e'], copy['c']['c']))
        moved = self.moved_bodies()
        self.assertEqual({1, 2}, set(moved))
        self.assertEqual({round(self.now, 3) + 7},
                         {m.due for m in moved.values()})
        self.assertEqual([ids[0]], self.list_ids(include_claimed=True)[0])
        self.assertRaises(errors.MessageDoesNotExist, self.messages.get,
                          self.queue, ids[1], project=PROJECT)
        # Pending pushes follow: the originals' gone, the copies' due.
        self.assertEqual({new: self.now + 7}, {
            k: v for k, v in self.pending().items() if k in (new, ids[1])})
        self.at(6.999)
        self.assertEqual([], self.claim(queue=self.target)[1])
        self.at(7)
        self.assertEqual(sorted(new for _, new in pairs),
                         sorted(self.claim(queue=self.target)[1]))

    def test_move_the_oldest_ready_and_waiting_now(self):
        ids = self.post(0, 0, 600, 0)
        self.claim(limit=1)
        pairs = self.move(limit=2)
        self.assertEqual(ids[1:3], [old for old, _ in pairs])
        self.assertEqual(sorted(new for _, new in pairs),
                         sorted(self.claim(queue=self.target)[1]))
        self.assertEqual([ids[3]], self.claim()[1])

    def test_move_refusals(self):
        (mid,) = self.post(0)
        self.assertRaises(errors.QueueDoesNotExist, self.messages.move,
                          self.queue, 'nope', project=PROJECT, ids=[mid])
        self.assertRaises(errors.QueueDoesNotExist, self.messages.move,
                          'nope', self.target, project=PROJECT, ids=[mid])
        self.queues.create(self.queue, project='other')
        self.queues.create(self.target, project='other')
        self.assertEqual([], self.messages.move(
            self.queue, self.target, project='other', ids=[mid]))
        self.assertEqual([mid], self.list_ids()[0])

    def test_a_move_is_recorded_on_both_sides(self):
        for queue in (self.queue, self.target):
            self.queues.set_metadata(queue, {'_history_ttl': 600},
                                     project=PROJECT)
        (mid,) = self.post(0)
        ((_, new),) = self.move(ids=[mid], delay=5)
        kept = history.History(self.driver)
        (moved,) = [e for e in kept.events(self.queue, PROJECT)
                    if e.kind == 'moved']
        self.assertEqual((mid, {'to': self.target, 'as': new}),
                         (moved.message_id, moved.fields))
        (posted,) = kept.events(self.target, PROJECT)
        self.assertEqual((new, 'posted', mid, {'n': 0}),
                         (posted.message_id, posted.kind,
                          posted.fields['from'], posted.fields['body']))

    def test_moves_racing_claims_are_never_both(self):
        ids = self.post(*[0] * 30)
        moved = []

        def moves():
            for i in range(0, 30, 3):
                moved.extend(self.move(ids=ids[i:i + 3]))

        claimed = set(self.racing_claims(moves, claimers=3, limit=2,
                                         ttl=600, pause=0))
        self.assertEqual(set(), {old for old, _ in moved} & claimed)
        self.assertEqual(set(ids), {old for old, _ in moved} | claimed)
        self.assertEqual(sorted(new for _, new in moved),
                         sorted(self.claim(limit=40, queue=self.target)[1]))


class FIFOSteeringTest(SteeringTest):
    data_driver = driver.FIFODataDriver
