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
