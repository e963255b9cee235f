"""Delay behaviour every ``*.delay`` driver must have, backend-neutral.

A backend's test module subclasses ``DelayBehaviour`` with a mixin that
sets ``self.driver`` (the data driver) and ``self.queues`` (Zaqar's
storage pipeline queue controller, whose stages the driver's entry
points provide). The clock is Zaqar's
(``oslo_utils.timeutils``), overridden here: no test sleeps for a delay.
"""

import datetime
import math
import threading
import uuid

from oslo_utils import timeutils
from zaqar.storage import errors
from zaqar.transport import validation

from zaqar_delay import delay
from zaqar_delay.storage import export

CLIENT = str(uuid.uuid4())
OTHER_CLIENT = str(uuid.uuid4())
PROJECT = 'p1'


def freeze_clock(test):
    """Freeze Zaqar's clock at now, on a whole millisecond, until
    ``test`` ends: a message posted then with delay d is due exactly d
    seconds later (due times are kept to the ms, rounded up)."""
    now = timeutils.utcnow()
    timeutils.set_time_override(now.replace(
        microsecond=now.microsecond // 1000 * 1000))
    test.addCleanup(timeutils.clear_time_override)


class Helpers:
    """setUp and helpers of the shared suites: a fresh queue, a frozen
    clock."""

    def setUp(self):
        super().setUp()
        freeze_clock(self)
        self.messages = self.driver.message_controller
        self.claims = self.driver.claim_controller
        self.queue = 'q-' + uuid.uuid4().hex[:8]
        self.queues.create(self.queue, project=PROJECT)

    # helpers

    def post(self, *delays, queue=None, project=PROJECT, ttl=3600,
             client=CLIENT):
        msgs = []
        for i, wait in enumerate(delays):
            msg = {'ttl': ttl, 'body': {'n': i}}
            if wait is not None:
                msg['delay'] = wait
            msgs.append(msg)
        return self.messages.post(queue or self.queue, msgs, client,
                                  project=project)

    def claim(self, limit=10, ttl=3000, queue=None, project=PROJECT):
        claim_id, msgs = self.claims.create(
            queue or self.queue, {'ttl': ttl, 'grace': 60},
            project=project, limit=limit)
        return claim_id, [m['id'] for m in msgs]

    def racing_claims(self, work, claimers=2, limit=1, ttl=3000,
                      pause=0.05):
        """Run ``work()`` while ``claimers`` threads claim ``limit``
        messages at a time (every ``pause`` seconds) for ``ttl``; the ids
        they claimed, once ``work`` is done and they stopped."""
        claimed, stop = [], threading.Event()

        def claimer():
            while not stop.wait(pause):
                claimed.extend(self.claim(limit=limit, ttl=ttl)[1])

        threads = [threading.Thread(target=claimer)
                   for _ in range(claimers)]
        for thread in threads:
            thread.start()
        try:
            work()
        finally:
            stop.set()
            for thread in threads:
                thread.join(60)
        return claimed

    def drain(self, queue=None, limit=20, ttl=600):
        """Claim until nothing is left; the ids claimed, in order."""
        found = []
        while True:
            ids = self.claim(limit=limit, ttl=ttl, queue=queue)[1]
            if not ids:
                return found
            found += ids

    def list_ids(self, queue=None, project=PROJECT, **kwargs):
        pages = self.messages.list(queue or self.queue, project=project,
                                   client_uuid=OTHER_CLIENT, **kwargs)
        ids = [m['id'] for m in next(pages)]
        return ids, next(pages)

    def list_all(self, limit, **kwargs):
        seen, marker = [], None
        for _ in range(100):
            ids, marker = self.list_ids(limit=limit, marker=marker, **kwargs)
            if not ids:
                return seen
            seen.extend(ids)
        self.fail('listing did not end')

    def stats_of(self, queue, project):
        return self.queues.stats(queue, project=project)['messages']

    def set_default_delay(self, seconds):
        self.queues.set_metadata(self.queue,
                                 {'_default_message_delay': seconds},
                                 project=PROJECT)


class DelayBehaviour(Helpers):

    # pop and purge

    def test_pop_takes_due_messages_until_the_queue_is_empty(self):
        self.set_default_delay(600)
        ready = self.post(0, 0, 0)
        waiting = self.post(None)
        popped = []
        messages = self.messages.pop(self.queue, 2, project=PROJECT)
        while messages:     # as Zaqar's purge does
            popped.extend(m['id'] for m in messages)
            self.assertLess(len(popped), 10, 'pop never ran dry')
            messages = self.messages.pop(self.queue, 2, project=PROJECT)
        self.assertEqual(ready, popped)
        self.assertEqual(waiting, self.list_ids(include_delayed=True)[0])

    def read_on_a_host_behind(self, seconds=5):
        """From here on, read as a zaqar-server whose clock is
        ``seconds`` behind the one that posted (and behind the wall
        clock, which some stores stamp ids with)."""
        timeutils.set_time_override(
            timeutils.utcnow() - datetime.timedelta(seconds=seconds))

    def test_claimed_messages_never_have_a_negative_age(self):
        self.post(0, 0)
        self.read_on_a_host_behind()
        _, messages = self.claims.create(
            self.queue, {'ttl': 60, 'grace': 60}, project=PROJECT)
        ages = [m['age'] for m in messages]
        self.assertEqual([0, 0], ages)

    def test_listed_and_fetched_messages_never_have_a_negative_age(self):
        ids = self.post(0, 0)
        self.read_on_a_host_behind()
        listed = next(self.messages.list(self.queue, project=PROJECT))
        fetched = [self.messages.get(self.queue, mid, project=PROJECT)
                   for mid in ids]
        fetched += self.messages.bulk_get(self.queue, ids, project=PROJECT)
        ages = [m['age'] for m in list(listed) + fetched]
        self.assertEqual([0] * 6, ages)

    def test_an_empty_claim_is_falsy(self):
        self.set_default_delay(600)
        self.post(None)
        claim_id, messages = self.claims.create(
            self.queue, {'ttl': 60, 'grace': 60}, project=PROJECT)
        self.assertIsNone(claim_id)
        self.assertFalse(messages)

    # dead letters

    def test_a_message_claimed_too_often_goes_to_the_dead_letter_queue(self):
        dlq = self.queue + '-dlq'
        self.queues.create(dlq, project=PROJECT)
        self.queues.set_metadata(self.queue, {
            '_max_claim_count': 2, '_dead_letter_queue': dlq,
            '_dead_letter_queue_messages_ttl': 7799}, project=PROJECT)
        (mid,) = self.post(0)
        for _ in range(2):
            self.assertEqual([mid], self.claim(ttl=60)[1])
            timeutils.advance_time_seconds(70)
        self.assertEqual([], self.claim(ttl=60)[1])
        self.assertEqual([], self.list_ids(include_delayed=True,
                                           include_claimed=True)[0])
        (dead,) = self.list_ids(queue=dlq)[0]
        self.assertGreaterEqual(
            self.messages.get(dlq, dead, project=PROJECT)['age'], 0)

    # export

    def test_export_gives_each_message_once_with_its_times(self):
        self.set_default_delay(600)
        now = timeutils.utcnow_ts()
        ready, waiting, _ = self.post(0, None, 0)
        claim_id, (held,) = self.claim(limit=1)
        backend = type(self.driver).__module__.split('.')[2]
        records = list(export.messages(backend, self.driver, self.queue,
                                       PROJECT, batch=2, with_body=True))
        by_id = {r['id']: r for r in records}
        self.assertEqual(3, len(records))
        self.assertEqual(set(self.list_ids(include_claimed=True,
                                           include_delayed=True)[0]),
                         set(by_id))
        self.assertEqual(ready, held)
        self.assertEqual({(PROJECT, self.queue)},
                         {(r['project'], r['queue']) for r in records})
        wait = by_id[waiting]
        self.assertEqual((None, None, {'n': 1}), (
            wait['claim_id'], wait['claimed_at'], wait['body']))
        # Swift's creation time is the real clock's; the test's is frozen.
        self.assertAlmostEqual(600, wait['delay'], delta=10)
        self.assertAlmostEqual(now + 600, wait['due'], delta=2)
        self.assertAlmostEqual(now + 3600, wait['expires'], delta=2)
        taken = by_id[held]
        self.assertEqual((claim_id, 1), (taken['claim_id'],
                                         taken['claim_count']))
        self.assertAlmostEqual(0, taken['delay'], delta=10)
        self.assertAlmostEqual(now, taken['claimed_at'], delta=2)
        self.assertEqual(list(export.FIELDS), list(taken))

    # claims

    def test_claim_takes_only_due_messages(self):
        self.set_default_delay(600)
        ready, waiting = self.post(0, None)
        self.assertEqual([ready], self.claim(limit=2)[1])
        self.assertEqual([], self.claim(limit=2)[1])
        timeutils.advance_time_seconds(600)
        self.assertEqual([waiting], self.claim(limit=2)[1])

    def test_claim_never_takes_a_held_message(self):
        a, b = self.post(3, 0)
        first, taken = self.claim(limit=1)
        self.assertEqual([b], taken)
        timeutils.advance_time_seconds(4)
        self.assertEqual([a], self.claim(limit=2)[1])
        self.messages.delete(self.queue, b, project=PROJECT, claim=first)
        self.assertRaises(errors.MessageDoesNotExist, self.messages.get,
                          self.queue, b, project=PROJECT)

    def test_release_gives_back_only_the_released_messages(self):
        m1, m2, m3 = self.post(0, 0, 0)
        first, _ = self.claim(limit=1)
        self.claim(limit=1)
        self.claims.delete(self.queue, first, project=PROJECT)
        self.assertEqual([m1, m3], self.claim(limit=10)[1])
        counts = self.stats_of(self.queue, PROJECT)
        self.assertEqual((3, 3, 0), (counts['total'], counts['claimed'],
                                     counts['free']))

    def test_expired_claim_returns_its_messages(self):
        (m1,) = self.post(0)
        self.claim(ttl=60)
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_seconds(60)
        self.assertEqual([m1], self.claim()[1])

    def test_renewed_claim_keeps_its_messages(self):
        (m1,) = self.post(0)
        claim_id, _ = self.claim(ttl=60)
        timeutils.advance_time_seconds(50)
        self.claims.update(self.queue, claim_id, {'ttl': 100, 'grace': 0},
                           project=PROJECT)
        timeutils.advance_time_seconds(50)
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_seconds(60)
        self.assertEqual([m1], self.claim()[1])

    def test_claims_come_in_posting_order_once_due(self):
        ids = self.post(30, 20, 10, 0)
        timeutils.advance_time_seconds(30)
        self.assertEqual(ids, self.claim(limit=10)[1])

    # lists

    def test_list_does_not_hide_ready_behind_delayed(self):
        self.set_default_delay(600)
        self.post(*[None] * 10)
        (ready,) = self.post(0)
        self.assertEqual([ready], self.list_ids(limit=10)[0])

    def test_list_pages_through_every_ready_message(self):
        ready = []
        for _ in range(25):
            self.post(600, 600)
            ready += self.post(0)
        self.assertEqual(ready, self.list_all(limit=10))
        self.assertEqual(75, len(self.list_all(limit=7,
                                               include_delayed=True)))

    def test_list_with_claimed_and_delayed_keeps_rank_order(self):
        ids = self.post(0, 600, 0, 600, 0)
        self.claim(limit=1)
        self.assertEqual([ids[2], ids[4]], self.list_all(limit=2))
        self.assertEqual([ids[0], ids[2], ids[4]],
                         self.list_all(limit=2, include_claimed=True))
        self.assertEqual(ids[1:], self.list_all(limit=2,
                                                include_delayed=True))
        self.assertEqual(ids, self.list_all(limit=2, include_claimed=True,
                                            include_delayed=True))

    def test_list_without_echo_still_pages(self):
        mine = self.post(0, 0, 0, client=OTHER_CLIENT)
        theirs = self.post(0, 0)
        self.assertEqual(theirs, self.list_all(limit=2))
        self.assertEqual(mine + theirs, self.list_all(limit=2, echo=True))

    # posting

    def test_message_delay_wins_over_queue_default(self):
        self.set_default_delay(600)
        short, default = self.post(10, None)
        timeutils.advance_time_seconds(10)
        self.assertEqual([short], self.claim()[1])

    def test_queue_default_applies_to_posts_without_delay(self):
        # The websocket transport drops ``delay``: storage applies it.
        self.set_default_delay(60)
        self.post(None)
        self.assertEqual([], self.claim()[1])

    def test_delay_above_the_maximum_is_refused(self):
        # As Zaqar's error, which both transports answer with a 400.
        self.driver.max_delay = 900
        self.assertRaises(validation.ValidationFailed, self.post, 901)
        self.assertRaises(validation.ValidationFailed, self.post, -1)
        self.assertRaises(validation.ValidationFailed, self.post, '10')

    def test_ttl_shorter_than_delay_is_refused_by_default(self):
        self.assertRaises(validation.ValidationFailed, self.post, 600,
                          ttl=600)

    def test_ttl_shorter_than_delay_accepted_when_configured(self):
        self.driver.conf.set_override('ttl_shorter_than_delay', 'accept',
                                      group='delay')
        self.addCleanup(self.driver.conf.clear_override,
                        'ttl_shorter_than_delay', group='delay')
        self.assertEqual(1, len(self.post(600, ttl=60)))

    # stats

    def test_stats_count_delayed_and_next_due(self):
        self.post(0, 0, 120, 60)
        self.claim(limit=1)
        counts = self.stats_of(self.queue, PROJECT)
        self.assertEqual((4, 1, 2, 1), (counts['total'], counts['claimed'],
                                        counts['delayed'], counts['free']))
        # Posted now, to the millisecond (up): due 60 s later.
        due = math.ceil(timeutils.utcnow_ts(True) * 1000) / 1000 + 60
        self.assertEqual(delay.iso_ms(due), counts['next_due'])
        timeutils.advance_time_seconds(120)
        counts = self.stats_of(self.queue, PROJECT)
        self.assertEqual((0, 3), (counts['delayed'], counts['free']))
        self.assertNotIn('next_due', counts)

    # due times to the millisecond

    def test_a_message_is_due_at_its_millisecond_not_before(self):
        timeutils.set_time_override(
            timeutils.utcnow().replace(microsecond=250000))
        (mid,) = self.post(1)
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=999))
        self.assertEqual([], self.list_ids()[0])
        self.assertEqual([], self.claim()[1])
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=1))
        self.assertEqual([mid], self.list_ids()[0])
        self.assertEqual([mid], self.claim()[1])

    # isolation

    def test_projects_do_not_see_each_others_messages(self):
        self.queues.create(self.queue, project='p2')
        (mine,) = self.post(0)
        self.assertRaises(errors.MessageDoesNotExist, self.messages.get,
                          self.queue, mine, project='p2')
        self.assertEqual([], list(self.messages.bulk_get(
            self.queue, [mine], project='p2')))
        self.messages.delete(self.queue, mine, project='p2')
        self.messages.bulk_delete(self.queue, [mine], project='p2')
        self.assertEqual([], self.claim(project='p2')[1])
        self.assertEqual(0, self.stats_of(self.queue, 'p2')['total'])
        self.assertEqual(mine, self.messages.get(self.queue, mine,
                                                 project=PROJECT)['id'])
