"""Pending pushes of a delay store, backend-neutral.

Mixed into a backend's ``DelayTestBase`` (``tests/fixtures``): the data
driver is built with zaqar-delay's notifier stage in the message
pipeline, so it keeps pending pushes (``driver.push_store``).
"""

from oslo_utils import timeutils
from zaqar.conf import notification
from zaqar.conf import storage as storage_opts

from zaqar_delay import pending
from zaqar_delay import push

PROJECT = 'pushes'
CLIENT = 'b2c16e2a-1c2c-4a43-9a7b-3bd3f4b1c8a1'


class PendingPushes:
    # (queue, project) pairs Zaqar accepts.
    names = (('orders.eu', 'p.1'), ('a.b.c-_', 'x/y:z'),
             ('q' * 64, 'a.b/c.d:e'))

    def make_drivers(self, conf):
        conf.register_opts(storage_opts.ALL_OPTS,
                           group=storage_opts.GROUP_NAME)
        conf.register_opts(notification.ALL_OPTS,
                           group=notification.GROUP_NAME)
        conf.set_override('message_pipeline', [push.STAGE],
                          group=storage_opts.GROUP_NAME)
        return super().make_drivers(conf)

    def setUp(self):
        super().setUp()
        # Zaqar's clock stands still at a whole second: due times are
        # exactly now + delay.
        timeutils.set_time_override(
            timeutils.utcnow().replace(microsecond=0))
        self.addCleanup(timeutils.clear_time_override)
        self.queues.create('q', project=PROJECT)
        self.queues.set_metadata('q', {'_default_message_delay': 60},
                                 project=PROJECT)
        self.messages = self.driver.message_controller
        self.store = self.driver.push_store

    def post(self, *delays):
        return self.messages.post('q', [{'ttl': 600 + d, 'body': d,
                                         'delay': d} for d in delays],
                                  CLIENT, PROJECT)

    def test_every_message_gets_a_pending_push_at_its_due_time(self):
        ids = self.post(5, 0, 9)
        now = timeutils.utcnow_ts()
        self.assertEqual(now, self.store.next_due())
        self.assertEqual([(PROJECT, 'q', ids[1])],
                         [p[:3] for p in self.store.take(now, 10, 30)])
        taken = self.store.take(now + 9, 10, 30)
        self.assertEqual([(PROJECT, 'q', ids[0]), (PROJECT, 'q', ids[2])],
                         [p[:3] for p in taken])

    def test_a_push_is_due_at_its_millisecond_not_before(self):
        timeutils.set_time_override(
            timeutils.utcnow().replace(microsecond=250000))
        posted = timeutils.utcnow_ts(microsecond=True)
        (mid,) = self.post(1)
        self.assertEqual(posted + 1, self.store.next_due())
        self.assertEqual([], self.store.take(posted + 0.999, 10, 30))
        (taken,) = self.store.take(posted + 1, 10, 30)
        self.assertEqual((mid, posted + 1), (taken.message_id, taken.due))
        self.store.done([taken])

    def test_dotted_queue_names_and_odd_project_ids_come_back_whole(self):
        for queue, project in self.names:
            self.queues.create(queue, project=project)
            (mid,) = self.messages.post(queue, [{'ttl': 600, 'body': 1}],
                                        CLIENT, project)
            (taken,) = self.store.take(timeutils.utcnow_ts(), 10, 30)
            self.assertEqual((project, queue, mid), taken[:3])
            self.store.done([taken])

    def test_take_leases_and_done_forgets(self):
        (mid,) = self.post(2)
        now = timeutils.utcnow_ts()
        self.assertEqual([], self.store.take(now + 1, 10, 30))
        (taken,) = self.store.take(now + 2, 10, 30)
        self.assertEqual((PROJECT, 'q', mid), taken[:3])
        self.assertEqual(now + 2 + 30, self.store.next_due())   # leased
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
        now = timeutils.utcnow_ts()
        (taken,) = self.store.take(now, 10, 30)
        self.assertEqual(frozenset(), taken.delivered)
        had = frozenset(['http://127.0.0.1:1/a?x=1', 'mailto:b@example.com'])
        self.store.delivered([(taken, had)])
        self.assertEqual([dict(zip(pending.PENDING_FIELDS, (
            mid, queue, project, now + 30, sorted(had))))],
            self.store.pending(10))
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
