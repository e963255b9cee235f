"""Due times of ``swift.delay`` messages: on every message returned, and
asked on a post (``delay.DUE``), exact to the millisecond."""

import datetime

from oslo_utils import timeutils

from tests.common import behaviour
from tests.fixtures import swift_store
from zaqar_delay import delay
from zaqar_delay.storage import message

PROJECT = behaviour.PROJECT
KEYS = {'id', 'age', 'ttl', 'body', 'claim_id', 'claim_count'}


class SwiftDueTimesTest(behaviour.Helpers, swift_store.DelayTestBase):

    def dues(self, found):
        found = list(found)
        for one in found:
            self.assertIsInstance(one, message.Message)
            self.assertEqual(KEYS, set(one))
        return {one['id']: one.due for one in found}

    def test_every_message_returned_has_its_due_time(self):
        now = delay.due_at(timeutils.utcnow_ts(True), 0)
        ready, waiting = self.post(0, 30)
        due = {ready: now, waiting: delay.due_at(now, 30)}
        get = self.messages.get
        self.assertEqual({ready: now}, self.dues(
            [get(self.queue, ready, project=PROJECT)]))
        self.assertEqual(due, self.dues(self.messages.bulk_get(
            self.queue, [ready, waiting], project=PROJECT)))
        self.assertEqual(due, self.dues(next(self.messages.list(
            self.queue, project=PROJECT, echo=True, include_delayed=True))))
        self.assertEqual({ready: now}, self.dues(
            [self.messages.first(self.queue, project=PROJECT)]))
        claim_id, claimed = self.claims.create(
            self.queue, {'ttl': 60, 'grace': 60}, project=PROJECT)
        self.assertEqual({ready: now}, self.dues(claimed))
        self.assertEqual({ready: now}, self.dues(self.claims.get(
            self.queue, claim_id, project=PROJECT)[1]))
        timeutils.advance_time_seconds(30)
        self.assertEqual({waiting: due[waiting]}, self.dues(
            self.messages.pop(self.queue, 5, project=PROJECT)))

    def test_a_message_posted_without_a_delay_is_due_at_its_post(self):
        timeutils.advance_time_delta(datetime.timedelta(microseconds=123456))
        posted = delay.due_at(timeutils.utcnow_ts(True), 0)
        (mid,) = self.post(None)
        self.assertEqual(posted, self.messages.get(
            self.queue, mid, project=PROJECT).due)

    def post_due(self, *dues):
        return self.messages.post(
            self.queue, [{'ttl': 3600, 'body': n, delay.DUE: due}
                         for n, due in enumerate(dues)],
            behaviour.CLIENT, project=PROJECT)

    def ticking(self, step=0.25):
        """Until the test ends or ``still`` is called, the driver's clock
        moves ``step`` seconds at each read: a post reads it when it
        checks, then when it writes."""
        ticks = [timeutils.utcnow_ts(True)]

        def clock():
            ticks[0] += step
            return ticks[0]
        self.driver.clock = clock
        self.addCleanup(self.still)
        return ticks[0]

    def still(self):
        self.driver.__dict__.pop('clock', None)

    def test_a_due_time_asked_is_kept_to_the_ms_rounded_up(self):
        now = self.ticking()
        later, sooner = now + 90.0004, now + 20.5
        ids = self.post_due(later, sooner, now - 100)
        self.still()
        found = {m['id']: m.due for m in self.messages.bulk_get(
            self.queue, ids, project=PROJECT)}
        self.assertEqual(round(now + 90.001, 3), round(found[ids[0]], 6))
        self.assertEqual(sooner, found[ids[1]])
        # A time past is due at once.
        self.assertLess(found[ids[2]], now + 5)
        timeutils.advance_time_seconds(20)
        self.assertEqual([ids[2]], self.claim()[1])
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=499))
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=1))
        self.assertEqual([ids[1]], self.claim()[1])

    def test_a_due_time_in_the_second_it_is_posted_in_is_kept(self):
        timeutils.set_time_override(
            timeutils.utcnow().replace(microsecond=100000))
        self.assertEqual([], self.claim()[1])   # caught up on the queue
        (mid,) = self.post_due(timeutils.utcnow_ts(True) + 0.3)
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=299))
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=1))
        self.assertEqual([mid], self.claim()[1])
