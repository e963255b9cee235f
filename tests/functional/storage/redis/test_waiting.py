"""Waiting messages of ``redis.delay`` in chunks (``scripts/index.lua``):
claims, lists, deletes, stats and queue deletes across many chunks, and
the chunks in redis's compact encoding."""

from unittest import mock

from oslo_utils import timeutils
import redis

from tests.common import behaviour
from tests.fixtures import redis_store
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import waiting

# Messages posted by the tests below: over three chunks.
N = 3 * keys.CHUNK + 20
# Message i of N is due at STEP * (N - i) s (Zaqar's delays end at 900).
STEP = 2


class WaitingChunksTest(behaviour.Helpers, redis_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.set_default_delay(600)
        self.index = keys.index(self.queue, behaviour.PROJECT)

    def post_spread(self):
        """N messages, message i due at STEP * (N - i) s: the later
        posted, the sooner due. Returns their ids in posting order."""
        ids = []
        for start in range(0, N, 50):
            ids += self.post(*[STEP * (N - i)
                               for i in range(start, min(N, start + 50))])
        return ids

    def chunk_keys(self):
        return redis_store.chunk_keys(self.redis, self.index,
                                      self.index.chunk(''))

    def test_chunks_stay_compact_and_count_their_messages(self):
        self.post_spread()
        chunks = self.chunk_keys()
        redis_store.assert_compact(self, self.redis, chunks, 4)
        self.assertEqual(N, sum(self.redis.zcard(c) for c in chunks))
        self.assertEqual(b'%d' % N, self.redis.get(self.index.waiting_count))

    def test_one_post_of_ready_and_waiting_messages_across_chunks(self):
        # One post (one script call) whose messages fall in two chunks,
        # ready and waiting in turn; the soonest due of the waiting ones
        # is the first of chunk 0 and the second of chunk 1.
        self.redis.set(keys.rank_counter(self.queue, behaviour.PROJECT),
                       keys.CHUNK - 10)
        delays = [0 if i % 2 else STEP * (i * 7 % 20 + 20)
                  for i in range(20)]
        ids = self.post(*delays)
        now = timeutils.utcnow_ts(True)
        ready = [mid for mid, wait in zip(ids, delays) if not wait]
        self.assertEqual((b'10', b'10'), (
            self.redis.get(self.index.waiting_count),
            self.redis.get(self.index.ready_count)))
        self.assertEqual([b'0', b'1'], self.redis.zrange(
            self.index.ready_chunks, 0, -1))
        self.assertEqual(
            [(b'0', round(now + STEP * 20, 3)),
             (b'1', round(now + STEP * 24, 3))],
            sorted((c, round(due, 3)) for c, due in self.redis.zrange(
                self.index.due, 0, -1, withscores=True)))
        self.assertEqual(ready, self.claim(limit=20)[1])
        self.assertEqual([], self.claim(limit=20)[1])
        timeutils.advance_time_seconds(STEP * 24)
        self.assertEqual([mid for mid, wait in zip(ids, delays)
                          if 0 < wait <= STEP * 24], self.claim(limit=20)[1])

    def test_claims_take_what_came_due_across_chunks_never_early(self):
        ids = self.post_spread()
        self.assertEqual([], self.claim(limit=100)[1])
        claimed = []
        for rounds in range(1, N // 37 + 2):
            timeutils.advance_time_seconds(STEP * 37)
            due_now = {mid for i, mid in enumerate(ids)
                       if N - i <= 37 * rounds}
            while True:
                _, got = self.claim(limit=50)
                if not got:
                    break
                self.assertTrue(set(got) <= due_now, 'claimed early')
                claimed += got
            self.assertEqual(due_now, set(claimed))
        self.assertEqual(sorted(ids), sorted(claimed))
        self.assertEqual([], self.chunk_keys())
        self.assertIsNone(self.redis.get(self.index.waiting_count))
        self.assertEqual(0, self.redis.exists(self.index.waiting,
                                              self.index.due))

    def test_a_list_with_delayed_pages_through_every_chunk_in_order(self):
        ids = self.post_spread()
        timeutils.advance_time_seconds(STEP * 100)
        _, taken = self.claim(limit=30)   # 30 of the last 100 posted
        listed = self.list_all(limit=17, include_delayed=True)
        self.assertEqual([mid for mid in ids if mid not in taken], listed)
        self.assertEqual(ids, self.list_all(limit=17, include_delayed=True,
                                            include_claimed=True))

    def test_deletes_leave_no_empty_chunk(self):
        ids = self.post_spread()
        first_chunk = [mid for mid in ids
                       if self.redis.zscore(self.index.messages, mid)
                       < keys.CHUNK]
        self.messages.bulk_delete(self.queue, first_chunk,
                                  project=behaviour.PROJECT)
        self.assertEqual(3, len(self.chunk_keys()))
        self.assertEqual(3, self.redis.zcard(self.index.due))
        self.assertEqual(b'%d' % (N - len(first_chunk)),
                         self.redis.get(self.index.waiting_count))
        self.assertEqual(set(ids) - set(first_chunk),
                         set(waiting.ids(self.redis, self.index)))

    def test_stats_count_delayed_and_next_due_across_chunks(self):
        ids = self.post_spread()
        now = timeutils.utcnow_ts(True)
        counts = self.stats_of(self.queue, behaviour.PROJECT)
        self.assertEqual((N, N, 0), (counts['total'], counts['delayed'],
                                     counts['free']))
        # The sooner due are the last posted: the last chunk's.
        timeutils.advance_time_seconds(STEP * 30)
        counts = self.stats_of(self.queue, behaviour.PROJECT)
        self.assertEqual((N - 30, 30), (counts['delayed'], counts['free']))
        found = waiting.read(self.redis, self.index, now + STEP * 30)
        self.assertEqual((N, 30), found[:2])
        self.assertEqual((round(now + STEP, 3), round(now + STEP * 31, 3)),
                         (round(found.first_due, 3), round(found.next_due, 3)))
        self.assertEqual(len(ids), found.total)

    def test_deleting_the_queue_removes_every_chunk(self):
        self.post_spread()
        self.queues.delete(self.queue, project=behaviour.PROJECT)
        self.assertEqual([], self.redis.keys('*delay.wait*'))

    def test_a_chunk_opened_while_the_queue_is_deleted_goes_too(self):
        self.post_spread()
        execute = redis.client.Pipeline.execute
        raced = []

        def racing(pipe, *args, **kwargs):
            # After every read of the queue delete, before its
            # transaction: a delayed post opens a new chunk.
            if not raced:
                raced.append(True)
                self.redis.set(keys.rank_counter(self.queue,
                                                 behaviour.PROJECT),
                               keys.CHUNK * 40)
                self.post(30)
            return execute(pipe, *args, **kwargs)
        with mock.patch.object(redis.client.Pipeline, 'execute', racing):
            self.queues.delete(self.queue, project=behaviour.PROJECT)
        self.assertEqual([True], raced)
        self.assertEqual([], self.redis.keys('*delay.wait*'))
