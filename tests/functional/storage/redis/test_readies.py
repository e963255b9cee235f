"""Ready messages of ``redis.delay`` in chunks (``scripts/index.lua``):
claims, lists, deletes and queue deletes across chunks, in rank order,
the chunks in redis's compact encoding, counted, none left empty."""

from tests.common import behaviour
from tests.fixtures import redis_store
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import readies

# Messages posted by the tests below: over three chunks.
N = 3 * keys.CHUNK + 20


class ReadyChunksTest(behaviour.Helpers, redis_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.index = keys.index(self.queue, behaviour.PROJECT)

    def post_ready(self, count=N):
        ids = []
        for start in range(0, count, 50):
            ids += self.post(*[None] * min(50, count - start))
        return ids

    def chunk_keys(self):
        return redis_store.chunk_keys(self.redis, self.index,
                                      self.index.ready_chunk(''))

    def count(self):
        return int(self.redis.get(self.index.ready_count) or 0)

    def test_chunks_stay_compact_and_count_their_messages(self):
        ids = self.post_ready()
        chunks = self.chunk_keys()
        redis_store.assert_compact(self, self.redis, chunks, 4)
        self.assertEqual(N, self.count())
        self.assertEqual(ids, readies.ids(self.redis, self.index))
        self.assertEqual(0, self.redis.exists(self.index.ready))

    def test_claims_take_chunks_in_rank_order_and_empty_them(self):
        ids = self.post_ready()
        taken = []
        for _ in range(N // 37 + 1):
            taken += self.claim(limit=37)[1]
            self.assertEqual(ids[:len(taken)], taken)
            self.assertEqual(N - len(taken), self.count())
            # Only chunks that hold a ready message are listed.
            self.assertEqual(len(self.chunk_keys()), self.redis.zcard(
                self.index.ready_chunks))
        self.assertEqual(ids, taken)
        self.assertEqual(0, self.redis.exists(self.index.ready_chunks,
                                              self.index.ready_count))

    def test_released_messages_go_back_in_rank_order(self):
        ids = self.post_ready()
        claim_id, first = self.claim(limit=keys.CHUNK + 5)
        self.assertEqual(ids[:keys.CHUNK + 5], first)
        self.claims.delete(self.queue, claim_id, project=behaviour.PROJECT)
        self.assertEqual(ids, readies.ids(self.redis, self.index))
        self.assertEqual(ids, self.drain(limit=50))

    def test_lists_page_through_chunks_around_claimed_ones(self):
        ids = self.post_ready()
        taken = self.claim(limit=keys.CHUNK + 10)[1]
        self.assertEqual(ids[keys.CHUNK + 10:], self.list_all(limit=17))
        self.assertEqual(ids, self.list_all(limit=17, include_claimed=True))
        self.assertEqual(ids[:keys.CHUNK + 10], taken)

    def test_deletes_leave_no_empty_chunk(self):
        ids = self.post_ready()
        self.messages.bulk_delete(self.queue, ids[:keys.CHUNK + 1],
                                  project=behaviour.PROJECT)
        self.assertEqual(3, len(self.chunk_keys()))
        self.assertEqual(3, self.redis.zcard(self.index.ready_chunks))
        self.assertEqual(N - keys.CHUNK - 1, self.count())
        self.assertEqual(ids[keys.CHUNK + 1:],
                         readies.ids(self.redis, self.index))

    def test_deleting_the_queue_removes_every_chunk(self):
        self.post_ready()
        self.queues.delete(self.queue, project=behaviour.PROJECT)
        self.assertEqual([], self.redis.keys('*delay.ready*'))
