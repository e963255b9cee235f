"""Pending pushes of a delay store, backend-neutral.

Mixed into a backend's ``DelayTestBase`` (``tests/fixtures``): the data
driver is built with zaqar-delay's notifier stage in the message
pipeline, so it keeps pending pushes (``driver.push_store``).
"""

import datetime

from oslo_utils import timeutils
from zaqar.conf import notification
from zaqar.conf import storage as storage_opts

from tests.common import behaviour
from zaqar_delay import pending
from zaqar_delay import push

PROJECT = 'pushes'
CLIENT = 'b2c16e2a-1c2c-4a43-9a7b-3bd3f4b1c8a1'


class WithPushes:
    """Mixed in before a backend's ``DelayTestBase``: its data driver is
    made with zaqar-delay's notifier stage in the message pipeline, so it
    keeps pending pushes."""

    def make_drivers(self, conf):
        conf.register_opts(storage_opts.ALL_OPTS,
                           group=storage_opts.GROUP_NAME)
        conf.register_opts(notification.ALL_OPTS,
                           group=notification.GROUP_NAME)
        conf.set_override('message_pipeline', [push.STAGE],
                          group=storage_opts.GROUP_NAME)
        return super().make_drivers(conf)


class PendingPushes(WithPushes):
    # (queue, project) pairs Zaqar accepts.
    names = (('orders.eu', 'p.1'), ('a.b.c-_', 'x/y:z'),
             ('q' * 64, 'a.b/c.d:e'))

    def setUp(self):
        super().setUp()
        # Zaqar's clock stands still on a millisecond: due times are
        # exactly now + delay.
        behaviour.freeze_clock(self)
        self.queues.create('q', project=PROJECT)
        self.queues.set_metadata('q', {'_default_message_delay': 60},
                                 project=PROJECT)
        self.messages = self.driver.message_controller
        self.store = self.driver.push_store

    def post(self, *delays):
        return self.messages.post('q', [{'ttl': 600 + d, 'body': d,
                                         'delay': d} for d in delays],
                                  CLIENT, PROJECT)

    def next_due(self):
        due = self.store.next_due()
        return None if due is None else round(due, 3)

    def test_every_message_gets_a_pending_push_at_its_due_time(self):
        ids = self.post(5, 0, 9)
        now = timeutils.utcnow_ts(True)
        self.assertEqual(now, self.next_due())
        self.assertEqual([(PROJECT, 'q', ids[1])],
                         [p[:3] for p in self.store.take(now, 10, 30)])
        taken = self.store.take(now + 9, 10, 30)
        self.assertEqual([(PROJECT, 'q', ids[0]), (PROJECT, 'q', ids[2])],
                         [p[:3] for p in taken])

    def test_next_due_before_a_time(self):
        self.post(5, 9)
        now = timeutils.utcnow_ts(True)
        self.assertEqual(round(now + 5, 3),
                         round(self.store.next_due(before=now + 5.001), 3))
        self.assertIsNone(self.store.next_due(before=now + 5))
        self.assertIsNone(self.store.next_due(before=now))

    def test_a_push_is_due_to_the_millisecond(self):
        # Posted 0.4 s into a second: due 1.4 s into the next one.
        timeutils.advance_time_delta(datetime.timedelta(
            seconds=1 - timeutils.utcnow().microsecond / 1e6 + 0.4))
        (mid,) = self.post(1)
        now = timeutils.utcnow_ts(True)
        self.assertEqual(round(now + 1, 3), self.next_due())
        self.assertEqual([], self.store.take(now + 0.999, 10, 30))
        (taken,) = self.store.take(now + 1, 10, 30)
        self.assertEqual(mid, taken.message_id)
        self.assertEqual(round(now + 1, 3), round(taken.due, 3))

    def test_dotted_queue_names_and_odd_project_ids_come_back_whole(self):
        for queue, project in self.names:
            self.queues.create(queue, project=project)
            (mid,) = self.messages.post(queue, [{'ttl': 600, 'body': 1}],
                                        CLIENT, project)
            (taken,) = self.store.take(timeutils.utcnow_ts(True), 10, 30)
            self.assertEqual((project, queue, mid), taken[:3])
            self.store.done([taken])

    def test_take_leases_and_done_forgets(self):
        (mid,) = self.post(2)
        now = timeutils.utcnow_ts(True)
        self.assertEqual([], self.store.take(now + 1, 10, 30))
        (taken,) = self.store.take(now + 2, 10, 30)
        self.assertEqual((PROJECT, 'q', mid), taken[:3])
        self.assertEqual(round(now + 2 + 30, 3), self.next_due())  # leased
        self.assertEqual([], self.store.take(now + 3, 10, 30))
        (again,) = self.store.take(now + 32, 10, 30)    # the lease ended
        self.store.done([again])
        self.assertIsNone(self.store.next_due())
        self.assertEqual(mid, self.messages.get('q', mid, PROJECT)['id'])

    def test_subscribers_delivered_to_come_back_with_a_push_taken_again(self):
        (queue, project) = self.names[1]
        self.queues.create(queue, project=project)
        (mid,) = self.messages.post(queue, [{'ttl': 600, 'body': 1}],
                                    CLIENT, project)
        now = timeutils.utcnow_ts(True)
        (taken,) = self.store.take(now, 10, 30)
        self.assertEqual(frozenset(), taken.delivered)
        had = frozenset(['http://127.0.0.1:1/a?x=1', 'mailto:b@example.com'])
        self.store.delivered([(taken, had)])
        (listed,) = self.store.pending(10)
        self.assertEqual(round(now + 30, 3), round(listed['at'], 3))
        self.assertEqual(dict(zip(pending.PENDING_FIELDS, (
            mid, queue, project, listed['at'], sorted(had)))), listed)
        # The dispatcher died: the next one takes it once the lease ended.
        (again,) = self.store.take(now + 31, 10, 30)
        self.assertEqual(((project, queue, mid), had),
                         (again[:3], again.delivered))
        self.store.done([again])
        self.assertIsNone(self.store.next_due())
        # Posted again (a new message): nothing recorded for it.
        (other,) = self.messages.post(queue, [{'ttl': 600, 'body': 2}],
                                      CLIENT, project)
        (fresh,) = self.store.take(now + 62, 10, 30)
        self.assertEqual((other, frozenset()),
                         (fresh.message_id, fresh.delivered))

    def test_failed_pushes_are_kept_listed_and_forgotten(self):
        now = timeutils.utcnow_ts()
        first = dict(zip(pending.FAILED_FIELDS, (
            'k1', 'm1', 'orders.eu', 'a.b/c:d', 'http://h/x', 503, 3,
            'retries spent', now - 100)))
        second = dict(first, key='k2', status=None, at=now)
        self.store.fail(first, 3600)
        self.store.fail(second, 3600)
        self.assertEqual([first, second], self.store.failed(10))
        self.store.forget_failed([first])
        self.assertEqual([second], self.store.failed(10))

    def test_a_failed_push_older_than_the_retention_is_dropped(self):
        now = timeutils.utcnow_ts()
        old = dict(zip(pending.FAILED_FIELDS, (
            'k1', 'm1', 'q', PROJECT, 'http://h/x', 404, 1, 'refused',
            now - 100)))
        self.store.fail(old, 3600)
        self.store.fail(dict(old, key='k2', at=now), 50)
        self.assertEqual(['k2'], [r['key'] for r in self.store.failed(10)])
