"""Message history on ``mongodb.delay``, on the storage driver with
Zaqar's clock frozen: exact event times, claim expiries, pops, dead
letters, and nothing written for a queue without ``_history_ttl``
(``tests/functional/storage/redis/test_history.py`` on redis)."""

from bson import objectid
from oslo_utils import timeutils

from tests.common import behaviour
from tests.fixtures import mongodb_store
from zaqar_delay.storage.mongodb import history
from zaqar_delay.storage.mongodb import queries

PROJECT = behaviour.PROJECT


class MongoHistoryTest(behaviour.Helpers, mongodb_store.DelayTestBase):

    def keep(self, seconds=3600, queue=None, project=PROJECT, **more):
        self.queues.set_metadata(queue or self.queue,
                                 dict(more, _history_ttl=seconds),
                                 project=project)

    def events(self, queue=None, project=PROJECT):
        return [(e.at, e.kind, e.fields) for e in history.events(
            self.driver, queue or self.queue, project)]

    def document(self, mid, queue=None):
        return self.messages.collection(queue or self.queue,
                                        PROJECT).find_one(
            {'_id': objectid.ObjectId(mid)})

    def test_every_change_at_its_time(self):
        self.keep(_retry_backoff={'initial': 7})
        t0 = timeutils.utcnow_ts()
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
        self.assertEqual({'ttl': '3600', 'delay': '5', 'due': str(t0 + 5),
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

    def test_pops_and_unclaimed_deletes_say_so(self):
        self.keep()
        first, second = self.post(0, 0)
        self.messages.delete(self.queue, first, PROJECT)
        self.assertEqual(1, len(self.messages.pop(self.queue, 5, PROJECT)))
        deleted = [(e.message_id, e.fields) for e in history.events(
            self.driver, self.queue, PROJECT) if e.kind == 'deleted']
        self.assertEqual(first, deleted[0][0])
        self.assertEqual({'claim': '', 'popped': '0'}, deleted[0][1])
        self.assertEqual(second, deleted[1][0])
        self.assertEqual('1', deleted[1][1]['popped'])
        self.assertNotEqual('', deleted[1][1]['claim'])

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

    def test_nothing_is_written_without_history_ttl(self):
        (mid,) = self.post(0)
        claim_id, _ = self.claim()
        self.claims.delete(self.queue, claim_id, PROJECT)
        doc = self.document(mid)
        self.assertEqual(set(), {'h', 'hv'} & set(doc))
        self.messages.delete(self.queue, mid, PROJECT)
        self.assertIsNone(self.document(mid))
        self.assertEqual([], self.events())

    def test_dotted_projects_and_queues_keep_apart(self):
        for queue, project in (('b.c', 'a'), ('c', 'a.b')):
            self.queues.create(queue, project=project)
            self.keep(queue=queue, project=project)
            self.post(0, queue=queue, project=project)
        self.assertEqual(1, len(self.events('b.c', 'a')))
        self.assertEqual(1, len(self.events('c', 'a.b')))
