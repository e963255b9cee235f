"""``reschedule`` on ``swift.delay``: a message due at another time,
atomically with claims (doc/source/swift.rst, "Reschedules and
moves")."""


import fixtures
from oslo_utils import timeutils
from zaqar.storage import errors

from tests.common import behaviour
from tests.fixtures import swift_store
from zaqar_delay import delay
from zaqar_delay import errors as delay_errors
from zaqar_delay.storage import message
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import steering
from zaqar_delay.storage.swift import taker
from zaqar_delay.storage.swift import upstream

PROJECT = behaviour.PROJECT


class SwiftRescheduleTest(behaviour.Helpers, swift_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.index = self.messages.index(self.queue, PROJECT)
        self.now = timeutils.utcnow_ts(True)

    def reschedule(self, mid, **when):
        return self.messages.reschedule(self.queue, mid, project=PROJECT,
                                        **when)

    def expiry(self, mid):
        return int(self.driver.connection.head_object(
            upstream.message_container(self.queue, PROJECT), mid)[
                'x-delete-at'])

    def test_later_then_now_keeping_id_body_ttl_and_expiry(self):
        (mid,) = self.post(0)
        expires = self.expiry(mid)
        found = self.reschedule(mid, delay=600)
        self.assertIsInstance(found, message.Message)
        self.assertEqual((mid, {'n': 0}, 3600, delay.due_at(self.now, 600)),
                         (found['id'], found['body'], found['ttl'],
                          found.due))
        self.assertEqual(expires, self.expiry(mid))
        self.assertEqual([], self.claim()[1])
        self.assertEqual((1, 0), (self.stats_of(self.queue, PROJECT)[
            'delayed'], self.stats_of(self.queue, PROJECT)['free']))
        self.assertEqual(found.due, self.messages.get(
            self.queue, mid, project=PROJECT).due)
        self.assertEqual([], self.index.names(idx.READY))
        self.assertEqual(self.now, self.reschedule(mid).due)
        self.assertEqual([], self.index.names(idx.DUE))
        self.assertEqual([], self.index.names(idx.WAITING))
        self.assertEqual([mid], self.claim()[1])
        self.assertEqual(expires, self.expiry(mid))

    def test_a_waiting_message_sooner_and_at_a_time_asked(self):
        (mid,) = self.post(600)
        at = self.now + 30.0005
        self.assertEqual(round(self.now + 30.001, 3),
                         round(self.reschedule(mid, due=at).due, 6))
        (entry,) = self.index.names(idx.DUE)
        self.assertEqual(mid, idx.untimed(entry)[2])
        timeutils.advance_time_seconds(30)
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_seconds(0.001)
        self.assertEqual([mid], self.claim()[1])
        # A time past is now.
        (other,) = self.post(600)
        self.assertEqual(timeutils.utcnow_ts(True), self.reschedule(
            other, due=self.now - 100).due)

    def test_refusals_change_nothing(self):
        ready, short = self.post(0, 30, ttl=120)
        claim_id, _ = self.claim(limit=1)
        self.assertRaises(errors.MessageIsClaimed, self.reschedule, ready,
                          delay=5)
        self.assertRaises(delay_errors.Refused, self.reschedule, short,
                          delay=120)
        self.assertRaises(errors.MessageDoesNotExist, self.reschedule,
                          'x', delay=5)
        self.assertRaises(errors.QueueDoesNotExist,
                          self.messages.reschedule, 'nowhere', ready,
                          project=PROJECT, delay=5)
        self.queues.create(self.queue, project='elsewhere')
        self.assertRaises(errors.MessageDoesNotExist,
                          self.messages.reschedule, self.queue, ready,
                          project='elsewhere', delay=5)
        self.assertEqual({ready: self.now, short: delay.due_at(self.now, 30)},
                         {m['id']: m.due for m in self.messages.bulk_get(
                             self.queue, [ready, short], project=PROJECT)})
        self.assertEqual(claim_id, self.index.lock_of(ready).holder)
        self.assertEqual([], self.index.names(idx.LOCK)[1:])

    def test_a_message_whose_claim_ended_leaves_it_backoff_and_all(self):
        self.queues.set_metadata(self.queue, {'_retry_backoff': {
            'initial': 100}}, project=PROJECT)
        (mid,) = self.post(0)
        self.claim(ttl=30)
        timeutils.advance_time_seconds(31)
        found = self.reschedule(mid)
        self.assertIsNone(found['claim_id'])
        self.assertEqual(1, found['claim_count'])
        # Not held back by the backoff, nor given back by the claim's
        # entry once it is read.
        self.assertEqual([mid], self.claim()[1])
        self.assertEqual([], self.index.names(idx.CLAIM_EXPIRY)[1:])

    def test_a_message_given_back_to_back_off_waits_for_its_new_time(self):
        self.queues.set_metadata(self.queue, {'_retry_backoff': {
            'initial': 100}}, project=PROJECT)
        (mid,) = self.post(0)
        self.claim(ttl=30)
        timeutils.advance_time_seconds(31)
        self.assertEqual([], self.claim()[1])   # given back, backing off
        self.reschedule(mid, delay=300)
        # Its backoff's entry, which the reschedule cannot name, makes
        # it ready at +130: it is still not taken before +331.
        timeutils.advance_time_seconds(299)
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_seconds(1)
        self.assertEqual([mid], self.claim()[1])

    def test_its_pending_push_comes_due_at_the_new_time(self):
        self.driver.pushes = True
        (mid,) = self.post(60)
        pushes = self.driver.push_store

        def pending():
            return [(p['message_id'], p['at']) for p in pushes.pending(1000)
                    if p['queue'] == self.queue]
        self.assertEqual([(mid, delay.due_at(self.now, 60))], pending())
        self.reschedule(mid, delay=600)
        self.assertEqual([(mid, delay.due_at(self.now, 600))], pending())

    def test_it_is_recorded_in_the_history(self):
        self.queues.set_metadata(self.queue, {'_history_ttl': 3600},
                                 project=PROJECT)
        (mid,) = self.post(0)
        self.reschedule(mid, delay=600)
        events = history.read(self.driver.connection, self.queue, PROJECT)
        self.assertEqual(
            [('posted', mid), ('rescheduled', mid)],
            [(event.kind, event.message_id) for event in events])
        self.assertEqual('%.3f' % delay.due_at(self.now, 600),
                         events[-1].fields['due'])

    def test_a_claim_that_listed_it_before_does_not_take_it(self):
        # The claim reads the ready index, then the reschedule runs whole
        # (it deletes the ready entry), then the claim takes the lock.
        (mid,) = self.post(0)
        take = taker.Taker._take_shard
        done = []

        def rescheduled_first(ctrl, *args):
            if not done:
                done.append(self.reschedule(mid, delay=600))
            return take(ctrl, *args)

        self.useFixture(fixtures.MonkeyPatch(
            'zaqar_delay.storage.swift.taker.Taker._take_shard',
            rescheduled_first))
        self.assertEqual([], self.claim()[1])
        self.assertEqual([mid], [m['id'] for m in done])
        self.assertIsNone(self.index.lock_of(mid))
        timeutils.advance_time_seconds(599)
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_seconds(1)
        self.assertEqual([mid], self.claim()[1])

    def test_a_claim_while_it_is_held_does_not_take_it(self):
        (mid,) = self.post(0)
        write = steering.Steering._reschedule
        during = []

        def claim_then_write(ctrl, *args):
            during.append(self.claim()[1])
            return write(ctrl, *args)

        self.useFixture(fixtures.MonkeyPatch(
            'zaqar_delay.storage.swift.steering.Steering._reschedule',
            claim_then_write))
        self.reschedule(mid, delay=600)
        self.assertEqual([[]], during)
        self.assertEqual([], self.claim()[1])

    def test_racing_claims_a_message_is_rescheduled_or_claimed(self):
        # Claims take the oldest first, the reschedules the newest
        # first: they meet on the way.
        ids = self.post(*[0] * 16)
        rescheduled = set()

        def reschedules():
            for mid in reversed(ids):
                try:
                    self.reschedule(mid, delay=600)
                    rescheduled.add(mid)
                except errors.MessageIsClaimed:
                    pass

        claimed = self.racing_claims(reschedules)
        claimed += self.drain(limit=10, ttl=3000)    # what neither took
        # The clock stands still: a claim holds what it took, and
        # nothing rescheduled comes due.
        self.assertEqual(len(claimed), len(set(claimed)))
        self.assertEqual(set(), rescheduled & set(claimed))
        self.assertEqual(set(ids), rescheduled | set(claimed))
