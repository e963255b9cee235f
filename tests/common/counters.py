"""The counters a ``*.delay`` store keeps for the metrics exporter
(``zaqar_delay.counts``), counted by its claims, releases and dead
letters, as the exporter's reader of that store reads them.

Mixed in like ``behaviour.DelayBehaviour``, with ``reader`` the
store's ``metrics_class``; the clock is Zaqar's,
overridden. The counters are store-wide: each test compares them with
those before it.
"""

import datetime

from oslo_utils import timeutils

from tests.common import behaviour
from zaqar_delay import retry

PROJECT = behaviour.PROJECT


class CounterBehaviour(behaviour.Helpers):
    reader = None

    def setUp(self):
        super().setUp()
        # On a whole second, as claims' expiries are: lateness after a
        # claim expired is then whole seconds too.
        timeutils.set_time_override(timeutils.utcnow().replace(
            microsecond=0))

    def counted(self):
        return self.reader(self.driver).totals().counted

    def grown(self, before):
        """{field: growth} of the counters since ``before``, the
        non-zero ones ('le:<bound in ms>' for the buckets)."""
        after = self.counted()
        found = {'le:%s' % ('inf' if bound is None else bound):
                 after.buckets[bound] - before.buckets[bound]
                 for bound in after.buckets}
        found.update((name, round(getattr(after, name) -
                                  getattr(before, name), 3))
                     for name in after._fields[1:])
        return {name: value for name, value in found.items() if value}

    def test_claims_of_messages_posted_without_delay_count_nothing(self):
        before = self.counted()
        self.post(0, 0, None)
        self.assertEqual(3, len(self.claim()[1]))
        self.assertEqual({}, self.grown(before))

    def test_claims_of_delayed_messages_count_their_lateness(self):
        before = self.counted()
        # Posted together (the mongodb store tells a delayed message by
        # its id's time, the wall clock): two due in 10 s, one now.
        self.post(10, 10, 0)
        self.assertEqual(1, len(self.claim()[1]))
        timeutils.advance_time_seconds(13)
        self.assertEqual(1, len(self.claim(limit=1)[1]))
        timeutils.advance_time_seconds(40)
        self.assertEqual(1, len(self.claim()[1]))
        # 3 s late (bucket 5 s) and 43 s late (bucket 60 s); the message
        # posted without a delay is not counted.
        self.assertEqual({'le:5000': 1, 'le:60000': 1, 'lateness': 46,
                          'claims': 2}, self.grown(before))

    def test_lateness_is_counted_to_the_millisecond(self):
        before = self.counted()
        self.post(10, 10)
        timeutils.advance_time_delta(datetime.timedelta(seconds=10,
                                                        milliseconds=7))
        self.assertEqual(1, len(self.claim(limit=1)[1]))
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=293))
        self.assertEqual(1, len(self.claim(limit=1)[1]))
        self.assertEqual({'le:10': 1, 'le:500': 1, 'lateness': 0.307,
                          'claims': 2}, self.grown(before))

    def test_releases_with_backoff_and_dead_letters_are_counted(self):
        before = self.counted()
        dlq = self.queue + '-dlq'
        self.queues.create(dlq, project=PROJECT)
        self.queues.set_metadata(self.queue, {
            retry.KEY: {'initial': 5}, '_max_claim_count': 1,
            '_dead_letter_queue': dlq}, project=PROJECT)
        self.post(0, 0)
        claim_id, _ = self.claim()
        self.claims.delete(self.queue, claim_id, project=PROJECT)
        self.assertEqual({'released': 2}, self.grown(before))
        # Due again 5 s later: the claim that takes them moves them.
        timeutils.advance_time_seconds(5)
        self.assertEqual([], self.claim()[1])
        self.assertEqual(2, len(self.claim(queue=dlq)[1]))
        # Their backoff made them delayed messages: their claim, at
        # their due time, is counted with a lateness of 0.
        self.assertEqual({'released': 2, 'dead_lettered': 2, 'le:5': 2,
                          'claims': 2}, self.grown(before))

    def test_expired_claims_given_back_with_backoff_are_counted(self):
        before = self.counted()
        plain = self.queue + '-plain'
        self.queues.create(plain, project=PROJECT)
        self.queues.set_metadata(self.queue, {retry.KEY: {'initial': 5}},
                                 project=PROJECT)
        self.post(0, 0)
        self.post(0, queue=plain)
        self.claim(ttl=60)
        self.claim(ttl=60, queue=plain)
        timeutils.advance_time_seconds(61)
        # The next claim finds both claims expired: the queue's two
        # messages wait 5 s from their claim's end, counted; the one of
        # the queue without a backoff is ready again, not counted.
        self.assertEqual([], self.claim()[1])
        self.assertEqual(1, len(self.claim(queue=plain)[1]))
        self.assertEqual({'expired': 2}, self.grown(before))
        # Due again: claimed as delayed messages, then their claim
        # expires and a list gives them back, with a backoff again. A
        # claim ends at a whole second (the clock is half a second in):
        # due 1.5 s before that claim.
        timeutils.advance_time_seconds(5)
        self.assertEqual(2, len(self.claim(ttl=60)[1]))
        timeutils.advance_time_seconds(61)
        self.assertEqual([], self.list_ids()[0])
        self.assertEqual({'expired': 4, 'le:1000': 2, 'lateness': 2,
                          'claims': 2}, self.grown(before))
