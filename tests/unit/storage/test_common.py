import sys
import types

import testtools

from zaqar_delay.storage import base
from zaqar_delay.storage import common


class PlainUriTest(testtools.TestCase):

    def test_a_delay_drivers_scheme_becomes_upstreams(self):
        for uri, backend, plain in (
                ('redis.delay://h:6379?dbid=3', 'redis',
                 'redis://h:6379?dbid=3'),
                ('mongodb.fifo.delay://h/db', 'mongodb', 'mongodb://h/db'),
                ('swift.delay://u:p@/proj', 'swift', 'swift://u:p@/proj'),
                ('redis://h', 'redis', 'redis://h')):
            self.assertEqual(plain, common.plain_uri(uri, backend))

    def test_another_backends_uri_is_left_alone(self):
        self.assertEqual('redisx://h', common.plain_uri('redisx://h', 'redis'))
        self.assertEqual('mongodb://h', common.plain_uri('mongodb://h',
                                                         'redis'))


class PostPlanTest(testtools.TestCase):

    class Queues:
        def __init__(self):
            self.reads = 0

        def get_metadata(self, queue, project=None):
            self.reads += 1
            return {'_default_message_delay': 30}

    driver = types.SimpleNamespace(
        max_delay=900, clock=lambda: 1000.0,
        delay_conf=types.SimpleNamespace(ttl_shorter_than_delay='reject',
                                         max_history_ttl=0))

    def test_the_metadata_given_is_not_read_again(self):
        queues = self.Queues()
        delays, _, _ = common.post_plan(self.driver, queues, 'q.1', 'p.1',
                                        [{'ttl': 60}],
                                        {'_default_message_delay': 5})
        self.assertEqual(([5], 0), (delays, queues.reads))

    def test_without_it_the_queues_metadata_is_read_once(self):
        queues = self.Queues()
        delays, _, _ = common.post_plan(self.driver, queues, 'q.1', 'p.1',
                                        [{'ttl': 60}, {'ttl': 60}])
        self.assertEqual(([30, 30], 1), (delays, queues.reads))


class BackendServicesTest(testtools.TestCase):
    """``DelaySettings(backend=...)`` takes each service from the module
    ``base.SERVICES`` names and refuses one that breaks its contract."""

    def backend(self, **broken):
        name = 'zaqar_delay_fake_backend_%d' % id(self)
        for _, module, cls, contract in base.SERVICES:
            found = types.ModuleType('%s.%s' % (name, module))
            body = {'__module__': found.__name__}
            if contract is not None:
                # Abstract methods left abstract: only the class counts.
                setattr(found, cls, type(cls, (contract,), body))
            else:
                setattr(found, cls, type(cls, (), body))
            if module in broken:
                setattr(found, cls, broken[module])
            sys.modules[found.__name__] = found
            self.addCleanup(sys.modules.pop, found.__name__)
        return name

    def test_each_attribute_is_its_modules_class(self):
        name = self.backend()

        class Driver(common.DelaySettings, backend=name):
            pass

        for attr, module, cls, contract in base.SERVICES:
            found = getattr(Driver, attr)
            self.assertEqual(('%s.%s' % (name, module), cls),
                             (found.__module__, found.__name__))

    def test_a_class_the_body_names_is_kept_and_checked(self):
        name = self.backend()

        class Mine(base.PushStore):
            pass

        class Driver(common.DelaySettings, backend=name):
            push_class = Mine

        self.assertIs(Mine, Driver.push_class)

        def define():
            class Driver(common.DelaySettings, backend=name):
                push_class = object

        self.assertRaises(TypeError, define)

    def test_a_class_that_breaks_its_contract_is_refused(self):
        name = self.backend(pushes=type('Pushes', (), {}))

        def define():
            class Driver(common.DelaySettings, backend=name):
                pass

        error = self.assertRaises(TypeError, define)
        self.assertIn('pushes.Pushes is no PushStore', str(error))

    def test_a_mixin_without_a_backend_names_none(self):
        class Mixin(common.DelaySettings):
            pass

        self.assertIsNone(Mixin.push_class)
