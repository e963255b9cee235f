"""Due times to the millisecond on ``mongodb.delay`` and
``mongodb.fifo.delay``: Zaqar's clock frozen 250.4 ms into a second, so
a message posted with delay 1 is due 1.251 s later, its due time
rounded up to the millisecond (``delay.due_at``)."""

import datetime

from oslo_utils import timeutils

from tests.common import behaviour
from tests.common import pushes
from tests.fixtures import mongodb_store
from zaqar_delay import delay
from zaqar_delay import retry
from zaqar_delay.storage import export
from zaqar_delay.storage.mongodb import driver
from zaqar_delay.storage.mongodb import metrics
from zaqar_delay.storage.mongodb import queries

PROJECT = behaviour.PROJECT
US = datetime.timedelta(microseconds=1)


class DueMsTest(pushes.WithPushes, behaviour.Helpers,
                mongodb_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.posted = timeutils.utcnow().replace(microsecond=250400)
        timeutils.set_time_override(self.posted)
        self.second = timeutils.utcnow_ts()

    def at(self, when):
        timeutils.set_time_override(when)

    def ms(self, seconds, ms=0):
        """The frozen second plus ``seconds`` and ``ms`` (a datetime)."""
        return (self.posted.replace(microsecond=0) +
                datetime.timedelta(seconds=seconds, milliseconds=ms))

    def take(self):
        store = self.driver.push_store
        return store.take(timeutils.utcnow_ts(True), 10, 30)

    def visible(self):
        """(listed ids, taken pushes (id, due)) now."""
        return (self.list_ids()[0],
                [(p.message_id, p.due) for p in self.take()])

    def counted(self):
        return metrics.Metrics(self.driver).totals().counted

    def test_a_delayed_message_is_due_at_its_millisecond_not_before(self):
        (mid,) = self.post(1)
        due = self.second + 1.251
        counts = self.stats_of(self.queue, PROJECT)
        self.assertEqual((1, delay.iso_ms(due)),
                         (counts['delayed'], counts['next_due']))
        self.assertTrue(counts['next_due'].endswith('.251Z'))
        self.assertEqual(due, self.driver.push_store.next_due())
        self.at(self.ms(1, 251) - US)
        self.assertEqual(([], []), self.visible())
        self.assertEqual([], self.claim()[1])
        self.at(self.ms(1, 251))
        self.assertEqual(([mid], [(mid, due)]), self.visible())
        self.assertEqual([mid], self.claim()[1])

    def test_a_message_posted_without_delay_is_ready_at_once(self):
        # Posted 250.4 ms into the second: claimable in that same
        # millisecond, not 1 ms later.
        (mid,) = self.post(0)
        self.assertEqual(([mid], [(mid, self.second + 0.25)]),
                         self.visible())
        self.assertEqual([mid], self.claim()[1])

    def test_a_release_backs_off_from_its_millisecond(self):
        self.queues.set_metadata(self.queue, {retry.KEY: {'initial': 2}},
                                 project=PROJECT)
        (mid,) = self.post(0)
        claim_id, _ = self.claim(ttl=30)
        self.at(self.ms(0, 375) + 600 * US)
        self.claims.delete(self.queue, claim_id, project=PROJECT)
        counts = self.stats_of(self.queue, PROJECT)
        self.assertEqual(delay.iso_ms(self.second + 2.375),
                         counts['next_due'])
        self.at(self.ms(2, 375) - US)
        self.assertEqual([], self.claim()[1])
        self.at(self.ms(2, 375))
        self.assertEqual([mid], self.claim()[1])

    def test_an_expired_claim_backs_off_from_its_whole_second_expiry(self):
        # Claims end at whole seconds, as upstream writes them.
        self.queues.set_metadata(self.queue, {retry.KEY: {'initial': 3}},
                                 project=PROJECT)
        (mid,) = self.post(0)
        self.claim(ttl=30)
        self.at(self.ms(32, 999))
        self.assertEqual([], self.claim()[1])
        self.at(self.ms(33))
        self.assertEqual([mid], self.claim()[1])

    def test_export_and_history_give_the_due_time_to_the_ms(self):
        self.queues.set_metadata(self.queue, {'_history_ttl': 600},
                                 project=PROJECT)
        (mid,) = self.post(1)
        (record,) = export.messages('mongodb', self.driver, self.queue,
                                    PROJECT)
        self.assertEqual((self.second, self.second + 1.251),
                         (record['created'], record['due']))
        doc = self.messages.collection(self.queue, PROJECT).find_one()
        posted = doc['hv'][0]
        self.assertEqual((self.second, 1, self.second + 1.251),
                         (posted['t'], posted['delay'], posted['due']))

    def test_ids_are_stamped_by_zaqars_clock(self):
        # An hour ahead of the wall clock: ages and the claim counters
        # read the id's time as the posting time.
        self.at(self.posted + datetime.timedelta(hours=1))
        (mid,) = self.post(0)
        doc = self.messages.collection(self.queue, PROJECT).find_one()
        self.assertEqual(self.second + 3600,
                         doc['_id'].generation_time.timestamp())
        self.assertEqual(0, self.messages.get(self.queue, mid,
                                              project=PROJECT)['age'])

    def test_claims_count_only_messages_posted_with_a_delay(self):
        before = self.counted()
        # In the last millisecond of a second: without a delay, due in
        # that millisecond, not counted; with delay 1, due 1.000 s after
        # a whole second, counted.
        self.at(self.ms(0, 999) + 600 * US)
        self.post(0)
        self.at(self.ms(1))
        self.post(1)
        self.assertEqual(1, len(self.claim()[1]))
        self.at(self.ms(2, 40))
        self.assertEqual(1, len(self.claim()[1]))
        after = self.counted()
        self.assertEqual((1, 0.04, 0),
                         (after.claims - before.claims,
                          round(after.lateness - before.lateness, 3),
                          after.early - before.early))
        self.assertEqual(1, after.buckets[50] - before.buckets[50])

    def test_whole_second_due_times_written_before_still_work(self):
        # As earlier versions wrote a message posted with delay 1: ``d``
        # and ``a`` the whole second after the post's second.
        (mid,) = self.post(1)
        collection = self.messages.collection(self.queue, PROJECT)
        collection.update_one({}, {'$set': {'d': self.second + 1,
                                            'a': self.second + 1,
                                            'pa': self.second + 1}})
        self.at(self.ms(1) - US)
        self.assertEqual(([], []), self.visible())
        self.assertEqual(1, self.stats_of(self.queue, PROJECT)['delayed'])
        self.at(self.ms(1))
        self.assertEqual(([mid], [(mid, self.second + 1)]), self.visible())
        self.assertEqual([mid], self.claim()[1])
        doc = collection.find_one()
        self.assertEqual((queries.CLAIMED, self.second + 1),
                         (doc['s'], doc['d']))


class FIFODueMsTest(DueMsTest):
    data_driver = driver.FIFODataDriver
