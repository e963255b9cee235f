"""The dispatcher's passes: a store in memory, an injected clock, and
webhook receivers on loopback."""

import time
import types

import testtools
from oslo_config import cfg
from zaqar.conf import notification
from zaqar.storage import errors

from tests.fixtures import receiver
from tests.unit.metrics import test_process
from zaqar_delay import opts
from zaqar_delay import pending
from zaqar_delay.push import dispatcher
from zaqar_delay.push import payloads


class Store:
    """Pending pushes in memory: {handle: due}."""

    def __init__(self, pending_pushes):
        self.pending = dict(pending_pushes)
        self.done_handles = []
        self.attempts = {}      # handle -> pending.Attempt tuple
        self.failed = []
        self.delivered_to = {}  # handle -> subscribers recorded
        self.careless = False

    def delivered(self, records):
        for push, subscribers in records:
            self.delivered_to[push.handle] = subscribers

    def fail(self, record, retention):
        self.failed.append((record, retention))

    def take(self, now, limit, lease):
        """Handles are '<queue>/<message id>'; the project is 'p'. A
        careless store takes pushes not due yet too."""
        due = sorted((at, h) for h, at in self.pending.items()
                     if at <= now or self.careless)
        taken = due[:limit]
        for _, handle in taken:
            self.pending[handle] = now + lease
        return [pending.Push('p', *handle.split('/'), handle=handle,
                             delivered=self.delivered_to.get(handle,
                                                             frozenset()),
                             due=at)
                for at, handle in taken]

    def done(self, pushes, attempts):
        for p, tried in zip(pushes, attempts):
            self.attempts[p.handle] = tried
            self.pending.pop(p.handle, None)
            self.delivered_to.pop(p.handle, None)
            self.done_handles.append(p.handle)

    def next_due(self, before=None):
        self.asked_before = before
        return pending.earlier(min(self.pending.values(), default=None),
                               before)


class Messages:
    def __init__(self, missing=(), gone_queues=()):
        self.missing, self.gone_queues = set(missing), set(gone_queues)
        self.fail = False

    def bulk_get(self, queue, ids, project):
        if self.fail:
            raise RuntimeError('store down')
        if queue in self.gone_queues:
            raise errors.QueueDoesNotExist(queue, project)
        return [{'id': i, 'body': 'b-' + i, 'ttl': 60, 'age': 0}
                for i in ids if i not in self.missing]


class Subscriptions:
    def __init__(self, *subscriptions):
        self.subscriptions = list(subscriptions)

    def list(self, queue, project=None, marker=None):
        yield [dict(s, source=queue) for s in self.subscriptions]
        yield None


class Queues:
    def __init__(self, policy=None):
        self.policy = policy

    def get(self, queue, project=None):
        return {'_retry_policy': self.policy} if self.policy else {}


# One retry at once, then one after a second, then none.
SHORT = {'retries_with_no_delay': 1, 'minimum_delay_retries': 1,
         'minimum_delay': 1, 'maximum_delay': 1,
         'maximum_delay_retries': 0}


def _conf(**overrides):
    conf = cfg.ConfigOpts()
    conf([], project='zaqar-delay-test')
    opts.register_opts(conf)
    conf.register_opts(notification.ALL_OPTS, group=notification.GROUP_NAME)
    settings = {'batch_size': 2, 'lease': 30, 'connect_timeout': 1,
                'read_timeout': 1}
    settings.update(overrides)
    for name, value in settings.items():
        conf.set_override(name, value, group=opts.PUSH_GROUP)
    return conf


class DispatcherTest(testtools.TestCase):

    def make(self, pending_pushes, now, subscribers=(), messages=None,
             policy=None, **overrides):
        self.now = now
        data = types.SimpleNamespace(
            push_store=Store(pending_pushes),
            message_controller=messages or Messages(),
            subscription_controller=Subscriptions(*[
                {'subscriber': url, 'options': {}} for url in subscribers]),
            clock=lambda: self.now)
        return dispatcher.Dispatcher(data, Queues(policy),
                                     _conf(**overrides))

    def hook(self, **kwargs):
        hook = receiver.Receiver(**kwargs)
        self.addCleanup(hook.stop)
        return hook

    def settle(self, made, count):
        """Wait until ``count`` pushes are done, then tell the store."""
        deadline = time.monotonic() + 20
        while len(made._finished) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        made.flush()

    def test_next_due_is_the_earliest_pending_push(self):
        self.assertIsNone(self.make({}, 100).next_due())
        self.assertEqual(90, self.make({'q/a': 130, 'q/b': 90},
                                       100).next_due())

    def test_next_due_asks_only_within_the_poll_interval(self):
        # The runner looks again in poll_interval anyway: a store need
        # not read the pushes due after that (secantusdb reads them all).
        made = self.make({'q/a': 130}, 100, poll_interval=0.5)
        self.assertIsNone(made.next_due())
        self.assertEqual(100.5, made.store.asked_before)
        made.store.pending['q/b'] = 100.2
        self.assertEqual(100.2, made.next_due())

    def test_a_pass_takes_a_batch_and_pushes_each_with_its_id(self):
        hook = self.hook()
        made = self.make({'q1/a': 99, 'q2/b': 100, 'q1/c': 98,
                          'q1/later': 101}, 100, [hook.url])
        self.assertEqual(2, made.run_once())        # batch size 2
        self.settle(made, 2)
        self.assertEqual({'q1/c', 'q1/a'}, set(made.store.done_handles))
        self.assertEqual(1, made.run_once())
        self.settle(made, 1)
        self.assertIn('q1/later', made.store.pending)
        bodies = sorted(hook.bodies(), key=lambda b: b['id'])
        self.assertEqual(
            [{'id': 'a', 'body': 'b-a', 'ttl': 60, 'queue_name': 'q1',
              'Message_Type': 'Notification'},
             {'id': 'b', 'body': 'b-b', 'ttl': 60, 'queue_name': 'q2',
              'Message_Type': 'Notification'},
             {'id': 'c', 'body': 'b-c', 'ttl': 60, 'queue_name': 'q1',
              'Message_Type': 'Notification'}], bodies)
        self.assertEqual(0, made.held)

    def test_drain_waits_for_the_pushes_taken_and_tells_the_store(self):
        hook = self.hook(stall=0.3)
        made = self.make({'q/a': 99, 'q/b': 99}, 100, [hook.url])
        self.assertEqual(2, made.run_once())
        self.assertEqual(2, made.held)
        self.assertEqual(0, made.drain(10))
        self.assertEqual({'q/a', 'q/b'}, set(made.store.done_handles))

    def test_a_deleted_message_or_queue_is_forgotten_unpushed(self):
        hook = self.hook()
        made = self.make({'q/a': 99, 'gone/b': 99}, 100, [hook.url],
                         messages=Messages(missing={'a'},
                                           gone_queues={'gone'}))
        made.run_once()
        made.flush()
        self.assertEqual([], hook.got)
        self.assertEqual({'q/a', 'gone/b'}, set(made.store.done_handles))

    def test_a_failed_read_leaves_the_push_taken_until_the_lease_ends(self):
        hook = self.hook()
        made = self.make({'q/a': 99}, 100, [hook.url])
        made.messages.fail = True
        made.run_once()
        made.flush()
        self.assertEqual([], made.store.done_handles)
        self.assertEqual(130, made.store.pending['q/a'])   # now + lease
        self.assertEqual(0, made.held)
        self.now = 130
        made.messages.fail = False
        made.run_once()
        self.settle(made, 1)
        self.assertEqual(['a'], [b['id'] for b in hook.bodies()])

    def test_a_503_is_retried_per_the_policy_and_a_2xx_is_not(self):
        hook = self.hook()
        hook.status = 503
        made = self.make({'q/a': 99}, 100, [hook.url], policy=SHORT)
        made.run_once()
        deadline = time.monotonic() + 10
        while len(hook.refused) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)    # the first attempt and the at-once retry
        hook.status = 204
        self.settle(made, 1)
        self.assertEqual(['q/a'], made.store.done_handles)
        self.assertEqual((2, 1), (len(hook.refused), len(hook.got)))

    def test_each_attempt_goes_to_the_store_with_its_push(self):
        failing, healthy = self.hook(), self.hook()
        failing.faults = [503]
        failing.status = 404
        made = self.make({'q/a': 99, 'q/gone': 99}, 100,
                         [failing.url, healthy.url], policy=SHORT,
                         messages=Messages(missing={'gone'}))
        made.run_once()
        self.settle(made, 2)
        self.assertEqual((), made.store.attempts['q/gone'])  # not pushed
        self.assertEqual(
            sorted([(100, failing.url, 404), (100, failing.url, 503),
                    (100, healthy.url, 204)]),
            sorted(made.store.attempts['q/a']))
        self.assertEqual({pending.Attempt},
                         {type(a) for a in made.store.attempts['q/a']})

    def test_a_4xx_ends_that_subscriber_only(self):
        refusing, healthy = self.hook(), self.hook()
        refusing.status = 404
        made = self.make({'q/a': 99, 'q/b': 99}, 100,
                         [refusing.url, healthy.url], policy=SHORT)
        made.run_once()
        self.settle(made, 2)
        self.assertEqual(2, len(refusing.refused))  # no retry
        self.assertEqual(
            [('a', 'q', 'p', refusing.url, 404, 1, 'refused', 100),
             ('b', 'q', 'p', refusing.url, 404, 1, 'refused', 100)],
            sorted(tuple(record[f] for f in pending.FAILED_FIELDS[1:])
                   for record, _ in made.store.failed))
        self.assertEqual({7 * 86400}, {kept for _, kept in made.store.failed})
        self.assertEqual(['a', 'b'], sorted(b['id']
                                            for b in healthy.bodies()))

    def test_a_dead_subscriber_costs_the_healthy_one_nothing(self):
        healthy = self.hook()
        dead = 'http://127.0.0.1:9/nobody-listens'
        made = self.make({'q/a': 99, 'q/b': 99}, 100, [dead, healthy.url],
                         policy=SHORT)
        made.run_once()
        self.assertEqual(2, healthy.wait_for(2, 10))
        self.assertEqual([], made.store.done_handles)   # dead: retrying
        self.settle(made, 2)                # after its 1 s retry
        self.assertEqual(2, len(made.store.done_handles))
        self.assertEqual(2, len(healthy.got))

    def test_subscribers_that_answered_are_recorded_while_others_retry(self):
        healthy = self.hook()
        failing = self.hook()
        failing.status = 503
        made = self.make({'q/a': 99}, 100, [failing.url, healthy.url],
                         policy=dict(SHORT, minimum_delay=30,
                                     maximum_delay=30), lease=300)
        made.run_once()
        self.assertEqual(1, healthy.wait_for(1, 10))
        deadline = time.monotonic() + 10
        while not made._partial and time.monotonic() < deadline:
            time.sleep(0.01)
        made.flush()    # the next pass: failing waits for its retry
        self.assertEqual({'q/a': frozenset([healthy.url])},
                         made.store.delivered_to)
        self.assertEqual([], made.store.done_handles)

    def test_a_push_taken_again_skips_the_subscribers_recorded(self):
        # A dispatcher died after recording ``healthy``: the next one,
        # once the lease ended, pushes to the others only.
        healthy, other = self.hook(), self.hook()
        made = self.make({'q/a': 99}, 100, [healthy.url, other.url])
        made.store.delivered_to['q/a'] = frozenset([healthy.url])
        made.run_once()
        self.settle(made, 1)
        self.assertEqual((0, 1), (len(healthy.got), len(other.got)))
        self.assertEqual(['q/a'], made.store.done_handles)
        self.assertEqual({}, made.store.delivered_to)

    def test_a_push_every_subscriber_had_is_done_unpushed(self):
        hook = self.hook()
        made = self.make({'q/a': 99}, 100, [hook.url])
        made.store.delivered_to['q/a'] = frozenset([hook.url])
        made.run_once()
        made.flush()
        self.assertEqual(([], ['q/a']), (hook.got, made.store.done_handles))

    def test_a_push_done_at_once_records_no_subscriber(self):
        one, two = self.hook(), self.hook()
        made = self.make({'q/a': 99}, 100, [one.url, two.url])
        made.run_once()
        self.settle(made, 1)
        self.assertEqual(['q/a'], made.store.done_handles)
        self.assertEqual({}, made.store.delivered_to)

    def test_retries_that_would_outlast_the_lease_are_not_made(self):
        dead = 'http://127.0.0.1:9/nobody-listens'
        # lease 5, timeouts 1 + 1: attempts may start 2 s after the take;
        # the policy's second retry waits 1 s more, the third 30 s.
        made = self.make({'q/a': 99}, 100, [dead], lease=5,
                         policy=dict(SHORT, maximum_delay=30,
                                     maximum_delay_retries=1))
        started = time.monotonic()
        made.run_once()
        self.settle(made, 1)
        self.assertEqual(['q/a'], made.store.done_handles)
        self.assertLess(time.monotonic() - started, 5)

    def test_a_subscriber_that_never_answers_times_out(self):
        hanging = self.hook(stall=30)
        healthy = self.hook()
        made = self.make({'q/a': 99}, 100, [hanging.url, healthy.url],
                         policy=dict(SHORT, minimum_delay_retries=0))
        started = time.monotonic()
        made.run_once()
        self.assertEqual(1, healthy.wait_for(1, 10))
        self.settle(made, 1)    # two attempts of a 1 s read timeout
        self.assertEqual(['q/a'], made.store.done_handles)
        self.assertEqual(2, len(hanging.got))
        self.assertLess(time.monotonic() - started, 10)

    def test_post_data_and_post_headers_templates(self):
        hook = self.hook()
        made = self.make({'q/a': 99}, 100)
        made.subscriptions = Subscriptions({
            'subscriber': hook.url,
            'options': {'post_data': '{"wrapped": "$zaqar_message$"}',
                        'post_headers': {'X-Tag': 't'}}})
        made.run_once()
        self.settle(made, 1)
        (body,) = hook.bodies()
        self.assertEqual('a', body['wrapped']['id'])

    def test_lateness_is_counted_from_the_due_time_and_none_early(self):
        hook = self.hook()
        made = self.make({'q/a': 97}, 100, [hook.url])
        before = test_process.samples()
        made.run_once()
        self.settle(made, 1)
        grew = test_process.growth(before)
        self.assertEqual(1, grew('zaqar_delay_push_lateness_seconds_count'))
        self.assertEqual(3, grew('zaqar_delay_push_lateness_seconds_sum'))
        self.assertEqual(0, grew('zaqar_delay_early_deliveries_total',
                                 via='push'))

    def test_a_push_sent_before_it_is_due_is_counted_early(self):
        hook = self.hook()
        made = self.make({'q/a': 105}, 100, [hook.url])
        made.store.careless = True
        before = test_process.samples()
        made.run_once()
        self.settle(made, 1)
        self.assertEqual(['a'], [b['id'] for b in hook.bodies()])
        grew = test_process.growth(before)
        self.assertEqual(1, grew('zaqar_delay_early_deliveries_total',
                                 via='push'))
        self.assertEqual(0, grew('zaqar_delay_push_lateness_seconds_sum'))

    def test_the_payload_is_zaqars_notification_with_the_id(self):
        self.assertEqual({'id': 'm', 'body': {'x': 1}, 'ttl': 60},
                         payloads.payload({'id': 'm', 'body': {'x': 1},
                                           'ttl': 60, 'age': 3,
                                           'claim_count': 0}))
