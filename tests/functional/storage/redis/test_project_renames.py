"""``migrate --to redis.delay`` moves the keys of a project whose id
holds a dot from the names written before ``keys.scoped_project`` (the
id as given, as upstream's) to the scoped ones, and back with ``--to
redis``."""

import io
import uuid

import fixtures
from zaqar.storage import errors

from tests.fixtures import redis_store
from zaqar_delay.cmd import manage
from zaqar_delay.storage.redis import history
from zaqar_delay.storage.redis import keys

CLIENT = str(uuid.uuid4())
PROJECT, QUEUE = 'a.b', 'c'


class ProjectRenamesTest(redis_store.DelayTestBase):

    def old_names(self):
        """Write as before, while in use: project ids in keys as given."""
        return fixtures.MonkeyPatch(
            'zaqar_delay.storage.redis.keys.scoped_project',
            lambda project: project)

    def migrate(self, *argv, top=()):
        out = io.StringIO()
        uri = self.conf['drivers:message_store:redis'].uri
        self.assertEqual(0, manage.main(
            list(top) + ['--uri', uri, 'redis', 'migrate'] + list(argv),
            out=out))
        return out.getvalue()

    def post(self, project, queue, body, delay=0):
        return self.driver.message_controller.post(
            queue, [{'ttl': 600, 'body': body, 'delay': delay}], CLIENT,
            project=project)

    def listed(self, project, queue):
        return sorted(m['body'] for m in next(
            self.driver.message_controller.list(
                queue, project=project, echo=True, include_claimed=True,
                include_delayed=True)))

    def test_a_dotted_projects_queue_is_read_back_after_the_move(self):
        with self.old_names():
            self.queues.create(QUEUE, project=PROJECT, metadata={
                '_history_ttl': 600, '_default_message_delay': 0, 'n': 1})
            self.queues.create('x', project='a')
            (ready,) = self.post(PROJECT, QUEUE, 'ready')
            self.post(PROJECT, QUEUE, 'waiting', delay=300)
            self.post('a', 'x', 'plain')
        self.assertTrue(self.redis.exists('a.b.c.messages'))
        self.assertRaises(errors.QueueDoesNotExist, self.listed, PROJECT,
                          QUEUE)

        report = self.migrate('--to', 'redis.delay', '--dry-run')
        self.assertIn("project 'a.b' queue 'c': ", report)
        self.assertIn('(dry run', report)
        self.assertTrue(self.redis.exists('a.b.c.messages'))

        report = self.migrate('--to', 'redis.delay')
        self.assertIn("project 'a.b' queue 'c': ", report)
        self.assertIn('a.b.c: ready 1, waiting 1, claimed 0, gone 0', report)
        self.assertNotIn("project 'a'", report)
        self.assertEqual([], [k for k in self.redis.keys('a.b.*')])
        self.assertEqual(['ready', 'waiting'], self.listed(PROJECT, QUEUE))
        self.assertEqual(['plain'], self.listed('a', 'x'))
        self.assertEqual([QUEUE], [q['name'] for q in next(
            self.queues.list(project=PROJECT))])
        self.assertEqual(['x'], [q['name'] for q in next(
            self.queues.list(project='a'))])
        self.assertEqual(1, self.queues.get_metadata(
            QUEUE, project=PROJECT)['n'])
        stats = self.queues.stats(QUEUE, project=PROJECT)['messages']
        self.assertEqual((2, 1), (stats['total'], stats['delayed']))
        self.assertEqual(
            ['posted', 'posted'],
            [e.kind for e in history.read(self.redis, QUEUE, PROJECT)])
        _, claimed = self.driver.claim_controller.create(
            QUEUE, {'ttl': 60, 'grace': 60}, project=PROJECT)
        self.assertEqual([ready], [m['id'] for m in claimed])

        # Idempotent: nothing left to move.
        self.assertNotIn('renamed', self.migrate('--to', 'redis.delay'))

        # Back to upstream's names, the data only: the management store
        # stays redis.delay's.
        report = self.migrate('--to', 'redis')
        self.assertIn("project 'a.b' queue 'c': ", report)
        self.assertTrue(self.redis.exists('a.b.c.messages'))
        self.assertEqual([b'a%2Eb.c', b'a%2Eb.queues_set'],
                         sorted(self.redis.keys('a%2Eb.*')))
        self.assertNotIn('renamed', self.migrate('--to', 'redis'))

    def test_queues_sharing_old_names_are_left(self):
        with self.old_names():
            for project, queue in ((PROJECT, QUEUE), ('a', 'b.c')):
                self.queues.create(queue, project=project)
            self.post(PROJECT, QUEUE, 'shared')
        report = self.migrate('--to', 'redis.delay')
        self.assertIn("project 'a.b' queue 'c': left as is, its keys are "
                      "those of project 'a' queue 'b.c' too", report)
        self.assertEqual(['shared'], self.listed('a', 'b.c'))
        self.assertEqual(
            [], [q['name'] for q in next(self.queues.list(project='a.b'))])
        self.assertEqual(keys.scoped_project('a.b'), 'a%2Eb')

    def test_upstreams_management_store_keeps_its_record_names(self):
        with self.old_names():
            self.queues.create(QUEUE, project=PROJECT)
            self.post(PROJECT, QUEUE, 'one')
        conf = self.useFixture(fixtures.TempDir()).join('zaqar.conf')
        with open(conf, 'w') as f:
            f.write('[drivers]\nmanagement_store = redis\n')
        report = self.migrate('--to', 'redis.delay',
                              top=['--config-file', conf])
        self.assertIn("project 'a.b' queue 'c': ", report)
        self.assertEqual(1, self.redis.zcard('a%2Eb.c.messages'))
        self.assertEqual([b'a.b.c'], self.redis.zrange('a.b.queues_set',
                                                       0, -1))
        self.assertEqual(b'hash', self.redis.type('a.b.c'))
