"""Project ids in ``redis.delay``'s keys: the encoding pair
(``keys``) and where the driver applies it (``projects``)."""

import inspect
import types

import testtools
from zaqar.storage import errors
from zaqar.storage.redis import queues as upstream_queues

from zaqar_delay.storage.redis import control
from zaqar_delay.storage.redis import driver
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import projects

IDS = ('p1', 'a.b', 'a%b', 'a%2Eb', '.', '%', '%25.%2E', '', 'é.ü/b:c')


class KeysTest(testtools.TestCase):

    def test_an_id_is_read_back_as_given(self):
        for project in IDS:
            scoped = keys.scoped_project(project)
            self.assertNotIn('.', scoped)
            self.assertEqual(project, keys.unscoped_project(str(scoped)))
            self.assertEqual(project, keys.unscoped_project(scoped))

    def test_ids_without_dot_or_percent_keep_their_names(self):
        for project in ('p1', 'tenant-a_b/c:d', ''):
            self.assertEqual(project, keys.scoped_project(project))
        self.assertIsNone(keys.scoped_project(None))
        self.assertIsNone(keys.unscoped_project(None))

    def test_encoding_twice_is_encoding_once(self):
        once = keys.scoped_project('a.b%')
        self.assertEqual('a%2Eb%25', once)
        self.assertIs(once, keys.scoped_project(once))

    def test_the_pairs_keys_differ(self):
        self.assertNotEqual(keys.index('c', 'a.b'), keys.index('b.c', 'a'))
        self.assertNotEqual(keys.queues('a.b'),
                            keys.queue_hash('b.queues_set', 'a'))
        self.assertEqual(('a.b', 'c.d'), keys.split_scope('a%2Eb.c.d'))
        self.assertEqual((None, 'q'), keys.split_scope('.q'))


class ScopedTest(testtools.TestCase):

    def test_every_method_taking_a_project_scopes_it(self):
        found = 0
        for cls in (driver.DataDriver.message_class,
                    driver.DataDriver.claim_class,
                    control.QueueController):
            self.assertTrue(projects.scopes_projects(cls))
            for name in dir(cls):
                method = inspect.getattr_static(cls, name)
                if isinstance(method, types.FunctionType) and (
                        'project' in inspect.signature(method).parameters
                        ) and name not in getattr(cls, 'keyed_projects', ()):
                    self.assertIn(name, vars(cls), name)
                    found += 1
        # upstream's and ours: create, list, post, _exists...
        self.assertGreater(found, 40)

    def test_a_project_is_scoped_by_position_and_by_name(self):
        seen = []

        class Controller:
            def get(self, queue, project=None, other=None):
                seen.append(project)

        scoped = projects.scoped(Controller)()
        scoped.get('q', 'a.b')
        scoped.get('q', project='a.b')
        scoped.get('q')
        self.assertEqual(['a%2Eb', 'a%2Eb', None], seen)
        self.assertIsInstance(seen[0], keys.Project)

    def test_an_error_names_the_project_as_given(self):
        class Controller:
            def get(self, queue, project=None):
                raise errors.QueueDoesNotExist(queue, project)

        scoped = projects.scoped(Controller)()
        found = self.assertRaises(errors.QueueDoesNotExist, scoped.get,
                                  'q', 'a.b')
        self.assertEqual('Queue q does not exist for project a.b',
                         str(found))

    def test_unscoped_gives_the_project_back(self):
        seen = []

        class Queues:
            name = 'queues'

            def exists(self, queue, project=None):
                seen.append(project)

        unscoped = projects.Unscoped(Queues())
        unscoped.exists('q', keys.scoped_project('a.b'))
        unscoped.exists('q', project=keys.scoped_project('a.b'))
        unscoped.exists('q', project='x%2Ey')
        self.assertEqual(['a.b', 'a.b', 'x%2Ey'], seen)
        self.assertEqual('queues', unscoped.name)

    def test_upstreams_queue_controller_is_reached_unscoped(self):
        class Control:
            queue_controller = upstream_queues.QueueController.__new__(
                upstream_queues.QueueController)

        self.assertIsInstance(projects.queue_controller(Control()),
                              projects.Unscoped)
