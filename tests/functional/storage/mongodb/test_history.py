"""Message history on ``mongodb.delay``, on the storage driver with
Zaqar's clock frozen: exact event times, claim expiries, pops, dead
letters, and nothing written for a queue without ``_history_ttl``
(``tests/functional/storage/redis/test_history.py`` on redis)."""

import datetime

from bson import objectid
from oslo_utils import timeutils
from zaqar.storage import errors

from tests.common import behaviour
from tests.common import history as history_tests
from tests.fixtures import mongodb_store
from zaqar_delay.storage.mongodb import history
from zaqar_delay.storage.mongodb import queries

PROJECT = behaviour.PROJECT


class MongoHistoryTest(history_tests.StoreHistory,
                       mongodb_store.DelayTestBase):

    def document(self, mid, queue=None):
        return self.messages.collection(queue or self.queue,
                                        PROJECT).find_one(
            {'_id': objectid.ObjectId(mid)})

    def test_every_change_at_its_time(self):
        self.keep(_retry_backoff={'initial': 7})
        t0 = timeutils.utcnow_ts()
        due = timeutils.utcnow_ts(microsecond=True) + 5     # to the ms
        (mid,) = self.post(5)
        timeutils.advance_time_seconds(5)
        claim_id, _ = self.claim(ttl=30)
        timeutils.advance_time_seconds(33)         # the claim expired
        self.assertEqual([], self.claim()[1])      # and backs off
        timeutils.advance_time_seconds(4)
        second, _ = self.claim(ttl=30)
        timeutils.advance_time_seconds(2)
        self.claims.delete(self.queue, second, PROJECT)   # released
        timeutils.advance_time_seconds(14)                # backs off
        third, _ = self.claim(ttl=30)
        self.messages.delete(self.queue, mid, PROJECT, claim=third)
        found = self.events()
        self.assertEqual([
            (t0, 'posted'), (t0 + 5, 'claimed'), (t0 + 35, 'claim_expired'),
            (t0 + 42, 'claimed'), (t0 + 44, 'released'),
            (t0 + 58, 'claimed'), (t0 + 58, 'deleted')],
            [(at, kind) for at, kind, _ in found])
        posted = found[0][2]
        self.assertEqual({'n': 0}, posted.pop('body'))
        self.assertEqual({'ttl': '3600', 'delay': '5', 'due': str(due),
                          'dedup': ''}, posted)
        self.assertEqual({'claim': claim_id, 'count': '1'}, found[1][2])
        self.assertEqual({'claim': claim_id, 'wait': '7'}, found[2][2])
        self.assertEqual({'claim': second, 'wait': '14'}, found[4][2])
        self.assertEqual({'claim': third, 'count': '3'}, found[5][2])
        self.assertEqual({'claim': third, 'popped': '0'}, found[6][2])
        doc = self.document(mid)
        self.assertEqual((queries.PROCESSED, t0 + 58, None),
                         (doc['s'], doc['a'], doc['c']['id']))
        # Gone for Zaqar; a second delete changes nothing.
        self.assertEqual([], list(self.messages.bulk_get(
            self.queue, [mid], PROJECT)))
        self.messages.delete(self.queue, mid, PROJECT)
        self.assertEqual(7, len(self.events()))

    def test_dedup_digest_is_kept_and_freed_by_a_delete(self):
        self.keep(_dedup_key='job')
        msg = [{'ttl': 60, 'body': {'job': 1}}]
        (mid,) = self.messages.post(self.queue, msg, behaviour.CLIENT,
                                    project=PROJECT)
        self.assertEqual(40, len(self.events()[0][2]['dedup']))
        self.messages.delete(self.queue, mid, PROJECT)
        (again,) = self.messages.post(self.queue, msg, behaviour.CLIENT,
                                      project=PROJECT)
        self.assertNotEqual(mid, again)

    def test_a_dead_letter_copy_once_and_the_original_kept(self):
        dlq = mongodb_store.other_partition(self, self.queue, PROJECT)
        self.queues.create(dlq, project=PROJECT)
        self.keep(_max_claim_count=1, _dead_letter_queue=dlq)
        (mid,) = self.post(0)
        claim_id, _ = self.claim()
        self.claims.delete(self.queue, claim_id, PROJECT)
        self.assertEqual([], self.claim()[1])
        kinds = [kind for _, kind, _ in self.events()]
        self.assertEqual(['posted', 'claimed', 'released', 'claimed',
                          'dead_lettered'], kinds)
        moved = self.events()[-1][2]
        self.assertEqual(dlq, moved['to'])
        copy = self.messages.get(dlq, moved['as'], PROJECT)
        self.assertEqual({'n': 0}, copy['body'])
        self.assertEqual(1, len(self.claim(queue=dlq)[1]))
        self.assertEqual(queries.PROCESSED, self.document(mid)['s'])
        self.assertNotIn('hv', self.document(moved['as'], dlq))

    def test_expired_unseen_is_recorded_at_its_expiry(self):
        self.keep(seconds=600)
        t0 = timeutils.utcnow_ts()
        first, second, third = self.post(0, 0, 0, ttl=100)
        claim_id, taken = self.claim(limit=1, ttl=30)
        self.claims.delete(self.queue, claim_id, PROJECT)
        # A claim that ends after the expiry moves it past its grace.
        claim_id, taken = self.claim(limit=1, ttl=120)
        self.assertEqual([first], taken)
        self.assertEqual(t0 + 180, self.document(first)['x'])
        timeutils.advance_time_seconds(100)
        # The second and third are past their ttl, not yet marked: read
        # as expired, never got.
        self.assertEqual({'s': queries.READY, 'x': t0 + 100},
                         {k: self.document(second)[k] for k in ('s', 'x')})
        self.assertEqual([(t0 + 100, 'expired', {'count': ''})] * 2,
                         [e for e in self.events() if e[1] == 'expired'])
        self.assertRaises(errors.MessageDoesNotExist, self.messages.get,
                          self.queue, second, PROJECT)
        # A list passes them over, and marks them.
        self.assertEqual([first], self.list_ids(include_claimed=True)[0])
        for mid in (second, third):
            doc = self.document(mid)
            self.assertEqual((queries.PROCESSED, t0 + 100),
                             (doc['s'], doc['a']))
            # Kept _history_ttl past its expiry, then the TTL index's.
            self.assertEqual(datetime.datetime.utcfromtimestamp(
                t0 + 100 + 600), doc['e'])
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_seconds(81)      # claim and grace ended
        self.assertEqual([], self.claim()[1])
        self.assertEqual([], self.list_ids(include_claimed=True,
                                           include_delayed=True)[0])
        self.assertEqual(queries.PROCESSED, self.document(first)['s'])
        found = [e for e in self.events() if e[1] == 'expired']
        self.assertEqual([(t0 + 100, 'expired', {'count': ''})] * 2 +
                         [(t0 + 180, 'expired', {'count': '2'})], found)
        self.assertEqual(['posted', 'claimed', 'released', 'claimed',
                          'claim_expired', 'expired'],
                         [e.kind for e in history.History(
                             self.driver).events(self.queue, PROJECT)
                          if e.message_id == first])

    def test_a_claim_passes_over_expired_ones_at_the_head(self):
        self.keep(seconds=600)
        expiring = self.post(0, 0, 0, ttl=60)
        timeutils.advance_time_seconds(30)
        (later,) = self.post(0, ttl=600)
        timeutils.advance_time_seconds(31)
        _, taken = self.claim(limit=1)
        self.assertEqual([later], taken)
        self.assertEqual([queries.PROCESSED] * 3,
                         [self.document(mid)['s'] for mid in expiring])

    def test_expired_ones_ahead_are_marked_once_then_out_of_bounds(self):
        # 200 expired ahead of 3 live ready ones; a call stops once it
        # marked [delay] promote_batch_size (100): the first claim
        # (limit 1) marks 1, then 101, and takes none; the second marks
        # the rest and takes a live one. Then the ready read, explained,
        # examines no key of theirs, on its index.
        self.keep(seconds=600)
        expiring = self.post(*[0] * 200, ttl=60)
        timeutils.advance_time_seconds(30)
        live = self.post(0, 0, 0, ttl=600)
        timeutils.advance_time_seconds(31)
        collection = self.messages.collection(self.queue, PROJECT)
        calls = []
        update_many = collection.update_many

        def counted(*args, **kwargs):
            calls.append(args[0])
            return update_many(*args, **kwargs)
        self.patch(collection, 'update_many', counted)
        self.patch(self.messages, 'collection', lambda *a, **k: collection)
        self.patch(self.messages, '_collection', lambda *a, **k: collection)
        self.assertEqual([], self.claim(limit=1)[1])
        self.assertEqual([1, 101], [len(c['_id']['$in']) for c in calls
                                    if c.get('x')])
        self.assertEqual(live[:1], self.claim(limit=1)[1])
        self.assertEqual([1, 101, 1, 97], [
            len(c['_id']['$in']) for c in calls if c.get('x')])
        self.assertEqual(200, collection.count_documents(
            {'_id': {'$in': [objectid.ObjectId(m) for m in expiring]},
             's': queries.PROCESSED}))
        ready = queries.in_state(self.document(live[1])['p_q'],
                                 queries.READY)
        plan = queries.find(collection, ready, limit=10).explain()
        self.assertEqual(ready.index, mongodb_store.winning_index(plan))
        self.assertLessEqual(
            plan['executionStats']['totalKeysExamined'], 3)

    def test_without_history_no_expiry_field(self):
        t0 = timeutils.utcnow_ts()
        (mid,) = self.post(0, ttl=60)
        doc = self.document(mid)
        self.assertNotIn('x', doc)
        self.assertEqual(datetime.datetime.utcfromtimestamp(t0 + 60),
                         doc['e'])
        self.claim(ttl=90)              # outlives it: upstream's grace
        self.assertNotIn('x', self.document(mid))
        self.assertEqual(datetime.datetime.utcfromtimestamp(t0 + 150),
                         self.document(mid)['e'])

    def test_nothing_is_written_without_history_ttl(self):
        (mid,) = self.post(0)
        claim_id, _ = self.claim()
        self.claims.delete(self.queue, claim_id, PROJECT)
        doc = self.document(mid)
        self.assertEqual(set(), {'h', 'hv'} & set(doc))
        self.messages.delete(self.queue, mid, PROJECT)
        self.assertIsNone(self.document(mid))
        self.assertEqual([], self.events())
