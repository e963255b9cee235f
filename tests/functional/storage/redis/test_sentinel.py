"""``redis.delay`` on a Sentinel URI: the driver, its scripts across a
failover, ``wait_replicas``, and ``zaqar-delay-manage`` (migrate,
export) on the same URI. The failover under a stream of requests
through a zaqar-server is tests/functional/http/test_failover.py."""

import io
import json
import os
import tempfile
import uuid

import redis
from zaqar.common import errors as zaqar_errors
from zaqar.conf import drivers_management_store_redis as management_opts
from zaqar.conf import drivers_message_store_redis as message_opts
from zaqar.storage.redis import messages as zaqar_messages
from zaqar.storage.redis import utils as zaqar_utils

from tests.fixtures import logs
from tests.fixtures import redis_sentinel
from tests.fixtures import redis_store
from zaqar_delay.cmd import manage
from zaqar_delay import errors
from zaqar_delay.history import events
from zaqar_delay import pending
from zaqar_delay import opts
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import stages
from zaqar_delay.storage.redis import upstream

PROJECT = 'p.sentinel'
QUEUE = 'q-sentinel'
CLIENT = str(uuid.uuid4())
CLAIM = {'ttl': 60, 'grace': 60}


class SentinelTest(redis_store.DelayTestBase):

    wait_replicas = 0
    # Well above any request's time on a loaded machine (a queue create
    # once timed out at 0.5 s while other tests ran).
    socket_timeout = 5

    def make_drivers(self, conf):
        self.group = redis_sentinel.SentinelGroup(replicas=1, sentinels=3)
        self.addCleanup(self.group.stop)
        logs.on_failure(self, self.group.logs)
        self.uris = {}
        for group_opts, dbid in ((message_opts, 0), (management_opts, 1)):
            conf.register_opts(group_opts.ALL_OPTS,
                               group=group_opts.GROUP_NAME)
            self.uris[group_opts] = self.group.uri(
                dbid=dbid, socket_timeout=self.socket_timeout)
            conf.set_override('uri', self.uris[group_opts],
                              group=group_opts.GROUP_NAME)
        opts.register_redis_opts(conf)
        opts.register_management_opts(conf)
        for group in (opts.REDIS_GROUP, opts.MANAGEMENT_GROUP):
            conf.set_override('wait_replicas', self.wait_replicas,
                              group=group)
            conf.set_override('wait_timeout_ms', 200, group=group)
        return redis_store.drivers(conf)

    def setUp(self):
        super().setUp()
        self.queues.create(QUEUE, project=PROJECT)

    def post(self, n=1, delay=0):
        return self.driver.message_controller.post(
            QUEUE, [{'ttl': 600, 'delay': delay, 'body': i}
                    for i in range(n)], CLIENT, PROJECT)

    def claim(self, limit=10):
        _, found = self.driver.claim_controller.create(
            QUEUE, CLAIM, PROJECT, limit=limit)
        return [m['id'] for m in found]

    def fail_over(self):
        """kill -9 the primary; return (new primary, old primary) once
        the sentinels promoted the replica."""
        old = self.group.primary()
        old.kill()
        new = self.group.server(self.group.wait_promoted(old.port))
        return new, old

    def test_scripts_run_on_a_promoted_primary_without_them(self):
        before = self.post(3)
        self.assertEqual(before[:1], self.claim(1))
        _, old = self.fail_over()
        # Started again from its append-only file, the old primary joins
        # as a replica (with wait_replicas = 1 no write is acknowledged
        # until then), or, after a second failover, is the primary
        # again (``rejoin``).
        primary, _ = self.group.rejoin(old)
        # Redis 7 never copies scripts to replicas; 6.2 may have: flush
        # them so that every script meets NOSCRIPT once.
        primary.client.script_flush()
        self.assertEqual(before[1:], self.claim())
        after = self.post(2)
        self.assertEqual(after, self.claim())
        self.assertEqual([True, True], primary.client.script_exists(
            *[s.sha for s in self._registered()]))

    def test_pending_pushes_are_taken_from_the_promoted_primary(self):
        self.driver.pushes = True   # as with the notifier stage on
        posted, = self.post(delay=1)
        _, old = self.fail_over()
        self.group.rejoin(old)
        store = self.driver.push_store
        taken = redis_sentinel.poll(
            lambda: store.take(self.driver.clock(), 10, 30),
            'the push due', timeout=10)
        self.assertEqual([(PROJECT, QUEUE, posted)],
                         [(p.project, p.queue, p.message_id)
                          for p in taken])
        store.done(taken)
        self.assertEqual(0, store.count())

    def _registered(self):
        scripts = self.driver.scripts
        return [getattr(scripts[name], '_script', scripts[name])
                for name in ('claim', 'post')]

    def test_wait_timeout_must_be_below_the_socket_timeout(self):
        self.conf.set_override('wait_replicas', 1, group=opts.REDIS_GROUP)
        self.conf.set_override('wait_timeout_ms', 5000,
                               group=opts.REDIS_GROUP)
        self.assertRaises(zaqar_errors.ConfigurationError,
                          redis_store.drivers, self.conf)

    def conf_file(self):
        """A zaqar.conf naming the group's Sentinel URIs."""
        conf = tempfile.NamedTemporaryFile('w', suffix='.conf',
                                           delete=False)
        self.addCleanup(os.unlink, conf.name)
        with conf:
            conf.write('[DEFAULT]\npooling = False\n[drivers]\n'
                       'message_store = redis.delay\n'
                       'management_store = redis.delay\n')
            for group_opts, uri in self.uris.items():
                conf.write('[%s]\nuri = %s\n' % (group_opts.GROUP_NAME, uri))
        return conf.name

    def test_manage_history_on_the_sentinel_uri(self):
        self.queues.set_metadata(QUEUE, {'_history_ttl': 600},
                                 project=PROJECT)
        (mid,) = self.post(1)
        out = io.StringIO()
        self.assertEqual(0, manage.main(
            ['--config-file', self.conf_file(), 'history', QUEUE,
             '--project', PROJECT, '--json'], out=out))
        events = [json.loads(line) for line in out.getvalue().splitlines()]
        self.assertEqual([(mid, 'posted')],
                         [(e['message_id'], e['kind']) for e in events])

    def test_manage_migrate_and_export_on_the_sentinel_uri(self):
        ids = self.post(2) + self.post(1, delay=300)
        self.queues.create('plain', project='plain')
        self.driver.message_controller.post(
            'plain', [{'ttl': 600, 'body': 1}], CLIENT, 'plain')
        uri = self.uris[message_opts].replace('redis://', 'redis.delay://')
        out = io.StringIO()
        self.assertEqual(0, manage.main(
            ['--uri', uri, 'redis', 'migrate', '--to', 'redis.delay'],
            out=out))
        # Each queue is named by upstream's key prefix <project>.<queue>.
        self.assertIn('plain.plain: ready 1, waiting 0, claimed 0, gone 0',
                      out.getvalue())
        self.assertIn('%s.%s: ready 2, waiting 1, claimed 0, gone 0' % (
            PROJECT, QUEUE), out.getvalue())

        conf = self.conf_file()
        out = io.StringIO()
        self.assertEqual(0, manage.main(
            ['--config-file', conf, 'export', '--project', PROJECT,
             '--queue', QUEUE], out=out))
        records = [json.loads(line) for line in out.getvalue().splitlines()]
        self.assertEqual(ids, [r['id'] for r in records])
        self.assertEqual([QUEUE] * 3, [r['queue'] for r in records])


class WaitReplicasTest(SentinelTest):

    wait_replicas = 1

    def replica(self):
        return next(s for s in self.group.servers
                    if s.port != self.group.primary_port())

    def lose(self, replica):
        """Kill ``replica``; return once the primary has no replica."""
        replica.kill()
        primary = self.group.primary()
        redis_sentinel.poll(
            lambda: primary.client.info('replication')[
                'connected_slaves'] == 0, 'the replica gone', 30)

    def test_an_acknowledged_post_is_on_the_replica(self):
        replica = self.replica()
        for _ in range(20):
            # WAIT returned: the replica holds the message, no polling.
            mid, = self.post()
            self.assertTrue(replica.client.exists(mid))

    def test_a_write_no_replica_holds_is_not_acknowledged(self):
        replica = next(s for s in self.group.servers
                       if s.port != self.group.primary_port())
        self.post()
        replica.kill()
        primary = self.group.primary()
        redis_sentinel.poll(
            lambda: primary.client.info('replication')[
                'connected_slaves'] == 0, 'the replica gone', 30)
        stored = primary.client.dbsize()
        error = self.assertRaises(errors.NotReplicated, self.post)
        self.assertIn('0 of 1 redis replicas after 200 ms', str(error))
        # The write reached the primary; it was not acknowledged.
        self.assertGreater(primary.client.dbsize(), stored)
        self.assertRaises(errors.NotReplicated, self.claim)
        replica.start()
        self.group.wait_replica_of(replica, primary)
        self.assertEqual(1, len(self.post()))

    def test_no_write_of_pushes_or_schedules_without_the_replica(self):
        replica = next(s for s in self.group.servers
                       if s.port != self.group.primary_port())
        pushes = self.driver.push_store
        schedules = self.driver.schedule_store
        push = pending.Push(PROJECT, QUEUE, 'm1', 'm1/%s/%s' % (
            QUEUE, PROJECT))
        record = {'key': 'k1', 'at': 100}
        writes = (
            lambda: pushes.delivered([(push, ['http://a'])]),
            lambda: pushes.fail(record, 3600),
            lambda: pushes.forget_failed([record]),
            lambda: schedules.touch(QUEUE, PROJECT, 200, 100),
            lambda: schedules.advance_all([(QUEUE, PROJECT, {'s': 150},
                                            300, 200)]))
        for write in writes:    # acknowledged with the replica
            write()
        replica.kill()
        primary = self.group.primary()
        redis_sentinel.poll(
            lambda: primary.client.info('replication')[
                'connected_slaves'] == 0, 'the replica gone', 30)
        for write in writes:
            self.assertRaises(errors.NotReplicated, write)

    def test_queue_writes_of_the_management_store_wait(self):
        replica = self.replica()
        # The management store is database 1 (``make_drivers``).
        held = redis.Redis(port=replica.port, db=1, socket_timeout=5)
        self.addCleanup(held.close)
        queues = self.control.queue_controller
        record = keys.queue_hash('q-made', PROJECT)
        # WAIT returned: the replica holds each write, no polling.
        self.assertTrue(queues.create('q-made', {'a': 1}, project=PROJECT))
        self.assertEqual({'a': 1}, upstream.unpack(held.hget(record, 'm')))
        queues.set_metadata('q-made', {'a': 2}, project=PROJECT)
        self.assertEqual({'a': 2}, upstream.unpack(held.hget(record, 'm')))
        queues.delete('q-made', project=PROJECT)
        self.assertEqual(0, held.exists(record))
        self.lose(replica)
        for write in (
                lambda: queues.create('q-lost', project=PROJECT),
                lambda: queues.set_metadata(QUEUE, {'a': 3},
                                            project=PROJECT),
                lambda: queues.delete(QUEUE, project=PROJECT)):
            self.assertRaises(errors.NotReplicated, write)

    def test_queue_writes_of_the_message_store_stage_wait(self):
        replica = self.replica()
        stage = stages.MessageQueueHandler(self.driver, self.control)
        member = zaqar_utils.msgset_key('q-staged',
                                        keys.scoped_project(PROJECT))
        # WAIT returned: the replica holds each write, no polling.
        stage.create('q-staged', project=PROJECT)
        self.assertIsNotNone(replica.client.zscore(
            zaqar_messages.MSGSET_INDEX_KEY, member))
        stage.delete('q-staged', project=PROJECT)
        self.assertIsNone(replica.client.zscore(
            zaqar_messages.MSGSET_INDEX_KEY, member))
        self.lose(replica)
        self.assertRaises(errors.NotReplicated, stage.create, 'q-lost',
                          project=PROJECT)
        self.assertRaises(errors.NotReplicated, stage.delete, QUEUE,
                          project=PROJECT)

    def test_a_replayed_event_waits(self):
        replica = self.replica()
        self.queues.set_metadata(QUEUE, {'_history_ttl': 600},
                                 project=PROJECT)
        self.queues.create('q-replayed', project=PROJECT)
        self.post(2)
        history = self.driver.history_class(self.driver)
        posted = history.events(QUEUE, PROJECT)
        stream = keys.history(QUEUE, PROJECT)
        history.post(QUEUE, PROJECT, posted[0], 'q-replayed', None, CLIENT)
        # WAIT returned: the replica holds the event, no polling.
        (_, fields), = replica.client.xrevrange(stream, count=1)
        self.assertEqual(events.REPLAYED.encode(), fields[b'k'])
        messages = self.driver.message_controller
        store = messages.store

        def store_then_lose_the_replica(*args):
            # The post was replicated; the event after it is not.
            found = store(*args)
            self.lose(replica)
            return found
        messages.store = store_then_lose_the_replica
        self.addCleanup(delattr, messages, 'store')
        self.assertRaises(errors.NotReplicated, history.post, QUEUE,
                          PROJECT, posted[1], 'q-replayed', None, CLIENT)
        primary = self.group.primary()
        (_, fields), = primary.client.xrevrange(stream, count=1)
        self.assertEqual(posted[1].message_id.encode(), fields[b'm'])
