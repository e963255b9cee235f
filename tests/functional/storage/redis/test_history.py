"""Message history on ``redis.delay``, on the storage driver with
Zaqar's clock frozen: exact event times, claim expiries, pops, and
nothing written for a queue without ``_history_ttl``."""

from oslo_utils import timeutils

from tests.common import behaviour
from tests.common import history as history_tests
from tests.fixtures import redis_store
from zaqar_delay.storage.redis import keys

PROJECT = behaviour.PROJECT


class RedisHistoryTest(history_tests.StoreHistory,
                       redis_store.DelayTestBase):

    def test_every_change_at_its_time(self):
        self.keep(_retry_backoff={'initial': 7})
        t0 = timeutils.utcnow_ts()
        due = '%.3f' % (timeutils.utcnow_ts(True) + 5)
        (mid,) = self.post(5)
        timeutils.advance_time_seconds(5)
        claim_id, _ = self.claim(ttl=30)
        timeutils.advance_time_seconds(30)         # the claim expires
        timeutils.advance_time_seconds(7)          # and backs off
        second, _ = self.claim(ttl=30)
        timeutils.advance_time_seconds(2)
        self.messages.delete(self.queue, mid, PROJECT, claim=second)
        found = self.events()
        self.assertEqual([
            (t0, 'posted'), (t0 + 5, 'claimed'), (t0 + 35, 'claim_expired'),
            (t0 + 42, 'claimed'), (t0 + 44, 'deleted')],
            [(at, kind) for at, kind, _ in found])
        posted = found[0][2]
        self.assertEqual({'n': 0}, posted.pop('body'))
        self.assertEqual({'ttl': '3600', 'delay': '5', 'due': due,
                          'dedup': ''}, posted)
        self.assertEqual({'claim': claim_id, 'wait': '7'}, found[2][2])
        self.assertEqual({'claim': second, 'count': '2'}, found[3][2])
        self.assertEqual({'claim': second, 'popped': '0'}, found[4][2])

    def test_dedup_digest_is_kept(self):
        self.keep(_dedup_key='job')
        self.messages.post(self.queue, [{'ttl': 60, 'body': {'job': 1}}],
                           behaviour.CLIENT, project=PROJECT)
        self.assertEqual(40, len(self.events()[0][2]['dedup']))

    def test_expired_while_waiting_is_recorded_by_a_list(self):
        self.keep()
        (mid,) = self.post(30)
        self.redis.delete(mid)          # its hash expired
        timeutils.advance_time_seconds(30)
        self.list_ids()
        self.assertEqual(['posted', 'expired'],
                         [kind for _, kind, _ in self.events()])

    def test_expired_by_zaqar_clock_is_recorded_by_a_claim(self):
        self.keep()
        self.post(0, ttl=60)
        timeutils.advance_time_seconds(61)   # the hash is still in redis
        self.assertEqual([], self.claim()[1])
        self.assertEqual([('posted', {}), ('expired', {'count': '0'})],
                         [(kind, {} if kind == 'posted' else fields)
                          for _, kind, fields in self.events()])

    def test_expired_ready_is_recorded_once_by_a_list(self):
        self.keep()
        (gone,) = self.post(0, ttl=60)
        self.post(0, ttl=60)
        self.redis.delete(gone)             # redis expired its hash
        timeutils.advance_time_seconds(61)  # the other: Zaqar's clock
        kinds = ['posted', 'posted', 'expired', 'expired']
        self.assertEqual([], self.list_ids()[0])
        self.assertEqual(kinds, [kind for _, kind, _ in self.events()])
        # Out of the index: no claim or list records them again.
        self.assertEqual([], self.claim()[1])
        self.assertEqual([], self.list_ids()[0])
        self.assertEqual(kinds, [kind for _, kind, _ in self.events()])

    def test_nothing_is_written_without_history_ttl(self):
        (mid,) = self.post(0)
        claim_id, _ = self.claim()
        self.claims.delete(self.queue, claim_id, PROJECT)
        self.assertIsNone(self.redis.hget(mid, 'h'))
        self.messages.delete(self.queue, mid, PROJECT)
        self.assertEqual(0, self.redis.exists(
            keys.history(self.queue, PROJECT)))
        self.assertEqual([], self.events())
