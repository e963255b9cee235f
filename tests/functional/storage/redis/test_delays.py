"""The delay behaviour suite, and redis-only checks, on ``redis.delay``."""

import datetime

from oslo_utils import timeutils
from oslo_utils import uuidutils

from tests.common import behaviour
from tests.fixtures import redis_store
from zaqar_delay.storage import export
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import records


class RedisDelayBehaviourTest(behaviour.DelayBehaviour,
                              redis_store.DelayTestBase):

    def test_claim_retry_returns_the_same_claim(self):
        ids = self.post(0, 0, 0)
        claim_id = uuidutils.generate_uuid()
        now = timeutils.utcnow_ts()

        def claim():
            return self.claims._claim(
                self.queue, behaviour.PROJECT, claim_id,
                self.claims._terms(now, claim_id, {'ttl': 60, 'grace': 0}) +
                [2, 100], {})

        def claimed_ids():
            return [records.of_fields(values)[b'id'].decode()
                    for values in records.unpacked(claim())]

        first = claimed_ids()
        self.assertEqual(ids[:2], first)
        self.assertEqual(first, claimed_ids())
        self.assertEqual([ids[2]], self.claim()[1])

    def test_post_retry_changes_nothing(self):
        mid = uuidutils.generate_uuid()
        post_keys = list(keys.index(self.queue, behaviour.PROJECT)) + [
            keys.rank_counter(self.queue, behaviour.PROJECT), keys.PUSHES,
            keys.history(self.queue, behaviour.PROJECT),
            keys.queue_hash(self.queue, behaviour.PROJECT), mid, mid]
        post_args = [timeutils.utcnow_ts(), '', 0, 0, '', keys.WAKE, 3600,
                     0, behaviour.CLIENT, b'\x01', '', 0]
        self.messages._post(post_keys, post_args)
        self.assertEqual([mid], self.claim()[1])
        self.messages._post(post_keys, post_args)  # the reply was lost
        self.assertEqual([], self.claim()[1])
        counts = self.stats_of(self.queue, behaviour.PROJECT)
        self.assertEqual((1, 1), (counts['total'], counts['claimed']))

    def test_deleting_a_queue_removes_its_index(self):
        self.post(0, 60)
        self.claim(limit=1)
        self.queues.delete(self.queue, project=behaviour.PROJECT)
        names = keys.index(self.queue, behaviour.PROJECT)
        self.assertEqual(0, self.redis.exists(*names))

    def test_a_list_page_is_full_behind_more_claimed_than_a_batch(self):
        # Zaqar lists a queue without _default_message_delay with
        # include_delayed: a page must come back full with more claimed
        # messages ahead than a script examines past its limit.
        batch = self.driver.delay_conf.promote_batch_size
        ids = self.post(*[0] * (batch + 30))
        for _ in range(batch // 20 + 1):
            self.claim(limit=20)
        claimed = 20 * (batch // 20 + 1)
        self.assertEqual(ids[claimed:claimed + 10],
                         self.list_ids(limit=10, include_delayed=True)[0])

    def test_export_gives_due_and_claim_times_to_the_millisecond(self):
        # Posted 0.4 s into a second with a delay of 1 s, claimed 0.2 s
        # after it came due: never counted as an early claim.
        timeutils.advance_time_delta(datetime.timedelta(
            seconds=1 - timeutils.utcnow().microsecond / 1e6 + 0.4))
        posted = timeutils.utcnow_ts(True)
        (mid,) = self.post(1)
        timeutils.advance_time_delta(datetime.timedelta(seconds=1.2))
        self.assertEqual([mid], self.claim()[1])
        (record,) = export.messages('redis.delay', self.driver, self.queue,
                                    behaviour.PROJECT)
        self.assertEqual(round(posted + 1, 3), round(record['due'], 3))
        self.assertEqual(round(posted + 1.2, 3),
                         round(record['claimed_at'], 3))

    def test_stats_show_the_ends_past_messages_whose_record_is_gone(self):
        # Zaqar's API answers a 503 for a counted queue whose stats have
        # no oldest or newest message.
        first, middle, last = self.post(0, 0, 0)
        self.redis.delete(first, last)          # their ttl ended in redis
        counts = self.stats_of(self.queue, behaviour.PROJECT)
        self.assertEqual((middle, middle), (
            counts['oldest']['id'], counts['newest']['id']))
        self.assertEqual(1, self.stats_of(self.queue,
                                          behaviour.PROJECT)['total'])
        self.redis.delete(middle)
        counts = self.stats_of(self.queue, behaviour.PROJECT)
        self.assertEqual(0, counts['total'])
        self.assertNotIn('newest', counts)
