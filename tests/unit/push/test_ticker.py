"""The schedule pass, on an in-memory store, with an injected clock."""

import math
import types

from oslo_config import cfg
from zaqar.conf import transport
from zaqar.storage import errors
import testtools

from zaqar_delay import dedup
from zaqar_delay.push import ticker


class Store:
    """The schedule index interface, in memory."""

    def __init__(self):
        self.looks, self.state, self.set_at = {}, {}, {}

    def touch(self, queue, project, at, defined):
        self.looks[queue, project] = at
        self.set_at[queue, project] = defined

    def defined(self, queue, project):
        return self.set_at.get((queue, project))

    def take(self, now, limit, lease):
        due = sorted((at, key) for key, at in self.looks.items()
                     if at <= now)[:limit]
        for _, key in due:
            self.looks[key] = now + lease
        return [key for _, key in due]

    def afters(self, queue, project):
        return dict(self.state.get((queue, project), {}))

    def afters_of(self, taken):
        return [self.afters(*one) for one in taken]

    def advance_all(self, records):
        return [self.advance(*record) for record in records]

    def advance(self, queue, project, afters, next_look, held):
        old = self.state.setdefault((queue, project), {})
        for name, after in afters.items():
            old[name] = max(after, old.get(name, after))
        if self.looks.get((queue, project)) != held:
            return False
        self.state[queue, project] = {name: old[name] for name in afters}
        if next_look is None:
            self.looks.pop((queue, project), None)
        else:
            self.looks[queue, project] = next_look
        return True

    def next_due(self):
        return min(self.looks.values(), default=None)


class Messages:
    """Keeps one message per identity, as the drivers' dedup does."""

    def __init__(self):
        self.posted = []
        self.given = []     # the metadata each post was given

    def post(self, queue, messages, client_uuid, project=None,
             metadata=None):
        self.given.append(metadata)
        for message in messages:
            identity = (queue, project, message[dedup.IDENTITY])
            if identity not in [m[0] for m in self.posted]:
                self.posted.append((identity, message['body']))


class Queues:
    def __init__(self):
        self.metadata = {}
        self.reads = 0

    def get_metadata(self, queue, project=None):
        self.reads += 1
        if (queue, project) not in self.metadata:
            raise errors.QueueDoesNotExist(queue, project)
        return self.metadata[queue, project]


def _conf():
    conf = cfg.ConfigOpts()
    conf.register_opts(transport.ALL_OPTS, group=transport.GROUP_NAME)
    return conf


class TickerTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.now = 1000
        self.store, self.messages = Store(), Messages()
        self.queues = Queues()
        self.driver = types.SimpleNamespace(
            schedule_store=self.store, message_controller=self.messages,
            clock=lambda: self.now, conf=_conf())

    def ticker(self, lease=30):
        return ticker.Ticker(self.driver, self.queues, lease, 10)

    def define(self, queue, *schedules, project='p.1', at=None):
        """Set the queue's schedules at ``at`` (default: within the
        current second), as the metadata check does."""
        at = self.now + 0.5 if at is None else at
        self.queues.metadata[queue, project] = {'_schedules': list(
            schedules)}
        self.store.touch(queue, project, int(at) + 1, math.ceil(at))

    def afters(self, queue='q.1', project='p.1'):
        """The stored afters, by schedule name (or reserved key)."""
        return {name.split('@')[0]: after for name, after in
                self.store.afters(queue, project).items()}

    def ticks(self, queue='q.1'):
        return [body['tick'] for (name, _, _), body in self.messages.posted
                if name == queue]

    def run_until(self, end, *tickers):
        while self.now < end:
            self.now += 1
            for one in tickers:
                one.run_once()

    def test_racing_tickers_post_each_tick_once(self):
        self.define('q.1', {'name': 's', 'every': 2, 'body': {'n': 1}})
        tickers = [self.ticker() for _ in range(3)]
        self.run_until(1021, *tickers)
        # Set at 1000.5: ticks from it, up to 1021.
        self.assertEqual(['1970-01-01T00:%02d:%02dZ' % divmod(t, 60)
                          for t in range(1002, 1022, 2)], self.ticks())
        (_, body) = self.messages.posted[0]
        self.assertEqual({'schedule': 's', 'tick': '1970-01-01T00:16:42Z',
                          'body': {'n': 1}}, body)

    def test_a_queues_posts_are_given_the_metadata_the_pass_read(self):
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1})
        self.now = 1002
        self.ticker().run_once()
        self.assertEqual(1, self.queues.reads)
        self.assertEqual([self.queues.metadata['q.1', 'p.1']],
                         self.messages.given)

    def test_a_dead_tickers_queue_is_taken_again_when_its_lease_ends(self):
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1})
        one = self.ticker(lease=5)
        self.run_until(1004, one)                # posts 1002, 1004
        dead = self.ticker(lease=5)
        dead.messages = types.SimpleNamespace(post=lambda *a, **k: 1 / 0)
        self.now = 1006
        self.assertEqual(1, dead.run_once())     # takes it, dies posting
        self.run_until(1010, one)                # held until 1011
        self.assertEqual(2, len(self.ticks()))
        # At 1011, 1006 to 1010 are at most LATE old: on time, posted.
        self.run_until(1011, one)
        self.assertEqual(['1970-01-01T00:16:%02dZ' % s
                          for s in (42, 44, 46, 48, 50)], self.ticks())

    def test_a_dead_pass_loses_no_tick_while_another_dispatcher_is_up(self):
        # The queue stays held for the dead pass's lease (9 s): 1006 and
        # 1008 are more than LATE old when it ends, but the other
        # dispatcher was up all along: they were not missed.
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1})
        one = self.ticker(lease=9)
        self.run_until(1004, one)
        dead = self.ticker(lease=9)
        dead.messages = types.SimpleNamespace(post=lambda *a, **k: 1 / 0)
        self.now = 1006
        dead.run_once()                          # held until 1015
        self.run_until(1015, one)
        self.assertEqual(list(range(1002, 1015, 2)), self.seconds())

    def test_ticks_while_every_dispatcher_was_down_are_missed(self):
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1})
        self.run_until(1004, self.ticker(lease=9))
        dead = self.ticker(lease=9)
        dead.messages = types.SimpleNamespace(post=lambda *a, **k: 1 / 0)
        self.now = 1006
        dead.run_once()                          # held until 1015
        self.now = 1014
        with self.assertLogs(ticker.LOG.logger, 'INFO') as logged:
            self.run_until(1015, self.ticker(lease=9))  # started at 1015
        self.assertEqual([1002, 1004, 1010, 1012, 1014], self.seconds())
        self.assertIn('ticks from 1006 to 1009 missed', logged.output[0])

    def test_a_store_slower_than_the_lease_loses_no_tick(self):
        # Under load every Swift request can take seconds: a pass's take
        # lasts 8 s and its post 3 s more, so its lease (10 s, from just
        # before the take) ends before it records, and another
        # dispatcher takes the queue then, 13 s after the last record.
        # Both were up: every tick is posted, once.
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1})
        one, two = self.ticker(lease=10), self.ticker(lease=10)
        self.run_until(1004, one, two)          # 1002, 1004
        store, post = self.store, self.messages.post

        def slow_take(now, limit, lease):
            taken = store.take(now, limit, lease)
            self.now += 8
            return taken

        def slow_post(*args, **kwargs):
            self.now = 1017                     # the lease ended at 1016
            self.assertEqual(1, two.run_once())
            post(*args, **kwargs)

        one.store = types.SimpleNamespace(
            take=slow_take, afters_of=store.afters_of,
            advance_all=store.advance_all, defined=store.defined)
        one.messages = types.SimpleNamespace(post=slow_post)
        self.now = 1006
        with self.assertLogs(ticker.LOG.logger, 'INFO') as logged:
            self.assertEqual(1, one.run_once())     # not recorded
        self.assertIn('past its lease', logged.output[0])
        one.store, one.messages = store, self.messages
        self.run_until(1020, one, two)
        self.assertEqual(list(range(1002, 1021, 2)), self.seconds())

    def test_ticks_due_during_a_slow_pass_are_on_time(self):
        # Under load a pass can take longer than LATE: the ticks that
        # fall due while it holds the queue are found late by the next
        # pass, every dispatcher being up. Posted, not skipped as missed.
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1})
        one = self.ticker()
        self.run_until(1004, one)               # 1002, 1004
        post = self.messages.post

        def slow(*args, **kwargs):
            post(*args, **kwargs)
            self.now = 1016                     # acknowledged 10 s later

        one.messages = types.SimpleNamespace(post=slow)
        self.now = 1006
        self.assertEqual(1, one.run_once())     # 1006, recorded at 1016
        one.messages = self.messages
        self.run_until(1018, one)
        self.assertEqual(['1970-01-01T00:%02d:%02dZ' % divmod(t, 60)
                          for t in range(1002, 1019, 2)], self.ticks())
        self.assertEqual(1018, self.afters()[':passed'])

    def test_a_pass_past_its_lease_moves_no_schedule_back(self):
        # A pass stalls past its lease, another takes the queue and
        # posts up to 1010; then the stalled pass records 1004. The next
        # pass must start from 1010, not post 1006 to 1010 again (a
        # second message for each once the first ones were consumed).
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1,
                            'catch_up': 'all'})
        fast, slow = self.ticker(lease=5), self.ticker(lease=5)
        self.run_until(1002, fast)
        posts = []
        slow_post = self.messages.post

        def stalled(*args, **kwargs):
            self.now = 1010
            fast.run_once()
            slow_post(*args, **kwargs)

        def recorded(queue, messages, *args, **kwargs):
            posts.extend(m[dedup.IDENTITY] for m in messages)
            slow_post(queue, messages, *args, **kwargs)

        slow.messages = types.SimpleNamespace(post=stalled)
        fast.messages = types.SimpleNamespace(post=recorded)
        self.now = 1004
        self.assertEqual(1, slow.run_once())
        self.assertEqual(['schedule s %d' % t
                          for t in (1004, 1006, 1008, 1010)], posts)
        self.assertEqual(1010, self.afters()['s'])
        del posts[:]
        self.run_until(1012, fast)
        self.assertEqual(['schedule s 1012'], posts)

    def test_a_changed_schedule_takes_effect_at_its_next_tick(self):
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1})
        one = self.ticker()
        self.run_until(1004, one)
        self.define('q.1', {'name': 's', 'every': 5, 'body': 2})
        self.run_until(1016, one)
        self.assertEqual([1002, 1004, 1005, 1010, 1015], [
            int(t[-3:-1]) + 60 * int(t[-6:-4]) for t in self.ticks()])

    def seconds(self, queue='q.1'):
        return [int(t[-3:-1]) + 60 * int(t[-6:-4])
                for t in self.ticks(queue)]

    def test_a_new_schedule_starts_when_it_was_set(self):
        # Set at 1000.5, first seen by a pass at 1003: its first tick is
        # 1001, the first at or after 1000.5.
        self.define('q.1', {'name': 's', 'every': 1, 'body': 1}, at=1000.5)
        self.now = 1003
        self.ticker().run_once()
        self.assertEqual([1001, 1002, 1003], self.seconds())

    def test_a_changed_schedule_starts_when_it_was_changed(self):
        # every 2 up to 1010, changed to every 3 at 1011.5 and seen at
        # 1014: 1011 is before the change, 1012 the old timing's.
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1})
        one = self.ticker()
        self.run_until(1011, one)
        self.define('q.1', {'name': 's', 'every': 3, 'body': 2},
                    at=1011.5)
        self.now = 1014
        one.run_once()
        self.run_until(1018, one)
        self.assertEqual([1002, 1004, 1006, 1008, 1010, 1014, 1017],
                         self.seconds())

    def test_an_after_kept_by_name_goes_on(self):
        # Stored by a version that kept afters by name, with no time
        # recorded for when the schedules were set.
        self.queues.metadata['q.1', 'p.1'] = {'_schedules': [
            {'name': 's', 'every': 2, 'body': 1}]}
        self.store.looks['q.1', 'p.1'] = 1003
        self.store.state['q.1', 'p.1'] = {'s': 1000}
        self.run_until(1005, self.ticker())
        self.assertEqual([1002, 1004], self.seconds())

    def test_a_body_change_keeps_the_schedule_going(self):
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1})
        one = self.ticker()
        self.run_until(1003, one)
        self.define('q.1', {'name': 's', 'every': 2, 'body': 2}, at=1003.5)
        self.run_until(1006, one)
        self.assertEqual([1002, 1004, 1006], self.seconds())

    def test_removed_schedules_and_deleted_queues_leave_the_index(self):
        self.define('q.1', {'name': 's', 'every': 2, 'body': 1})
        self.define('q.2', {'name': 's', 'every': 2, 'body': 1})
        one = self.ticker()
        self.run_until(1003, one)
        self.queues.metadata['q.1', 'p.1'] = {}
        del self.queues.metadata['q.2', 'p.1']
        self.run_until(1010, one)
        self.assertEqual({}, self.store.looks)
        self.assertEqual(1, len(self.ticks('q.1')))
        self.assertEqual(1, len(self.ticks('q.2')))

    def test_projects_and_dotted_names_are_apart(self):
        self.define('q.1', {'name': 'a.b', 'every': 3, 'body': 1},
                    project='p.1')
        self.define('q.1', {'name': 'a.b', 'every': 3, 'body': 2},
                    project='p.2')
        self.run_until(1010, self.ticker())
        projects = sorted(project for (_, project, _), _ in
                          self.messages.posted)
        self.assertEqual(['p.1'] * 3 + ['p.2'] * 3, projects)

    def test_an_idle_pass_is_one_take(self):
        calls = []
        self.store.take = lambda *args: calls.append(args) or []
        self.assertEqual(0, self.ticker().run_once())
        self.assertEqual([(1000, 10, 30)], calls)

    def test_a_failing_store_is_logged_not_raised(self):
        self.store.take = lambda *args: 1 / 0
        self.store.next_due = lambda: 1 / 0
        one = self.ticker()
        self.assertEqual(0, one.run_once())
        self.assertIsNone(one.next_due())

    def test_for_dispatcher_needs_a_schedule_index(self):
        self.assertIsNone(ticker.for_dispatcher(types.SimpleNamespace(),
                                                self.queues, None))

    def test_a_pass_takes_batches_until_none_is_full(self):
        for number in range(25):
            self.define('q.%d' % number, {'name': 's', 'every': 2,
                                          'body': 1})
        self.now += 1
        self.assertEqual(25, self.ticker().run_once())   # 10, 10, 5
        self.assertEqual(0, self.ticker().run_once())
