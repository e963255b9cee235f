"""The dispatcher's passes, on a store in memory and an injected clock."""

from concurrent import futures
import threading
import types

import testtools
from zaqar.storage import errors

from zaqar_delay import push
from zaqar_delay.push import dispatcher


class Store:
    """Pending pushes in memory: {handle: due}."""

    def __init__(self, pending):
        self.pending = dict(pending)
        self.done_handles = []

    def take(self, now, limit, lease):
        """Handles are '<queue>/<message id>'; the project is 'p'."""
        due = sorted((at, h) for h, at in self.pending.items() if at <= now)
        taken = [h for _, h in due[:limit]]
        for handle in taken:
            self.pending[handle] = now + lease
        return [push.Push('p', *handle.split('/'), handle=handle)
                for handle in taken]

    def done(self, pushes):
        for p in pushes:
            self.pending.pop(p.handle, None)
            self.done_handles.append(p.handle)

    def next_due(self):
        return min(self.pending.values(), default=None)


class Messages:
    def __init__(self, missing=(), gone_queues=()):
        self.missing, self.gone_queues = set(missing), set(gone_queues)

    def bulk_get(self, queue, ids, project):
        if queue in self.gone_queues:
            raise errors.QueueDoesNotExist(queue, project)
        return [{'id': i, 'body': 'b-' + i, 'ttl': 60, 'age': 0}
                for i in ids if i not in self.missing]


class Pusher:
    def __init__(self, fail=False):
        self.pushed, self.fail = [], fail

    def push(self, queue, messages, project):
        if self.fail:
            raise RuntimeError('subscription store down')
        self.pushed.append((queue, [m['id'] for m in messages]))
        finished = futures.Future()
        finished.set_result(None)
        return [finished]


class DispatcherTest(testtools.TestCase):

    def make(self, pending, now, messages=None, pusher=None):
        self.now = now
        made = dispatcher.Dispatcher.__new__(dispatcher.Dispatcher)
        made.store = Store(pending)
        made.messages = messages or Messages()
        made.pusher = pusher or Pusher()
        made.batch_size, made.lease, made.poll_interval = 2, 30, 0.5
        made.clock = lambda: self.now
        made._finish = types.MethodType(
            lambda self, pushes, started: self.store.done(pushes), made)
        return made

    def test_idle_it_sleeps_the_poll_interval(self):
        self.assertEqual(0.5, self.make({}, 100).wait())

    def test_it_sleeps_until_the_next_due_time_when_sooner(self):
        self.assertAlmostEqual(0.2, self.make({'q/a': 100.2}, 100).wait())
        self.assertEqual(0.0, self.make({'q/a': 90}, 100).wait())
        self.assertEqual(0.5, self.make({'q/a': 130}, 100).wait())

    def test_a_pass_pushes_a_batch_of_due_pushes_by_queue(self):
        made = self.make({'q1/a': 99, 'q2/b': 100, 'q1/c': 98,
                          'q1/later': 101}, 100)
        self.assertEqual(2, made.run_once())        # batch size 2
        self.assertEqual([('q1', ['c', 'a'])], made.pusher.pushed)
        self.assertEqual({'q1/c', 'q1/a'}, set(made.store.done_handles))
        self.assertEqual(1, made.run_once())
        self.assertEqual(('q2', ['b']), made.pusher.pushed[-1])
        self.assertIn('q1/later', made.store.pending)
        self.assertEqual({'q1/c', 'q1/a', 'q2/b'},
                         set(made.store.done_handles))

    def test_nothing_due_nothing_pushed(self):
        made = self.make({'q/a': 101}, 100)
        self.assertEqual(0, made.run_once())
        self.assertEqual([], made.pusher.pushed)

    def test_a_deleted_message_or_queue_is_forgotten_unpushed(self):
        made = self.make({'q/a': 99, 'gone/b': 99}, 100,
                         messages=Messages(missing={'a'},
                                           gone_queues={'gone'}))
        made.run_once()
        self.assertEqual([], made.pusher.pushed)
        self.assertEqual({'q/a', 'gone/b'}, set(made.store.done_handles))

    def test_a_failed_push_stays_taken_until_the_lease_ends(self):
        made = self.make({'q/a': 99}, 100, pusher=Pusher(fail=True))
        made.run_once()
        self.assertEqual([], made.store.done_handles)
        self.assertEqual(130, made.store.pending['q/a'])   # now + lease
        self.now = 130
        made.pusher = Pusher()
        made.run_once()
        self.assertEqual([('q', ['a'])], made.pusher.pushed)

    def test_pushes_are_done_only_once_their_tasks_have_ended(self):
        # However short the lease: a dispatcher killed while a task is
        # still pushing must leave its pushes taken, to be made again.
        made = self.make({'q/a': 99}, 100)
        made.lease = 0.01
        task = futures.Future()
        finishing = threading.Thread(
            target=dispatcher.Dispatcher._finish,
            args=(made, [push.Push('p', 'q', 'a', 'q/a')], [task]))
        finishing.start()
        finishing.join(0.3)
        self.assertTrue(finishing.is_alive())
        self.assertEqual([], made.store.done_handles)
        task.set_result(None)
        finishing.join(10)
        self.assertEqual(['q/a'], made.store.done_handles)

    def test_the_payload_is_zaqars_notification_with_the_id(self):
        self.assertEqual({'id': 'm', 'body': {'x': 1}, 'ttl': 60},
                         dispatcher.payload({'id': 'm', 'body': {'x': 1},
                                             'ttl': 60, 'age': 3,
                                             'claim_count': 0}))
