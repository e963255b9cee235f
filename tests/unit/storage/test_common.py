import testtools

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


class MetadataKnownTest(testtools.TestCase):

    class Queues:
        def __init__(self):
            self.reads = 0

        def get_metadata(self, queue, project=None):
            self.reads += 1
            return {'read': True}

    def test_a_post_in_it_takes_the_metadata_given(self):
        queues = self.Queues()
        with common.metadata_known('q.1', 'p.1', {'given': True}):
            self.assertEqual({'given': True},
                             common._metadata(queues, 'q.1', 'p.1'))
            # Another queue or project is read.
            self.assertEqual({'read': True},
                             common._metadata(queues, 'q.1', 'p.2'))
        self.assertEqual({'read': True},
                         common._metadata(queues, 'q.1', 'p.1'))
        self.assertEqual(2, queues.reads)
