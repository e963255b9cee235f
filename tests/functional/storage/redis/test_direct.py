"""``direct.Direct`` answers as the registered script it sends, on the
test redis-server: the reply, a script error, a script the server
lacks, a connection the server closed."""

from redis import exceptions
from zaqar.tests import base as zaqar_base

from tests.fixtures import redis_store
from zaqar_delay.storage.redis import direct

ECHO = "return {KEYS[1], ARGV[1], redis.call('INCR', KEYS[1])}"


class DirectTest(redis_store.RedisMixin, zaqar_base.TestBase):
    config_file = redis_store.CONF

    def setUp(self):
        super().setUp()
        self.script = self.redis.register_script(ECHO)
        self.direct = direct.Direct(self.script, self.redis)

    def test_the_reply_of_the_registered_script(self):
        self.assertEqual([b'k.with.dots', b'1.5', 1],
                         self.direct(keys=['k.with.dots'], args=[1.5]))
        self.assertEqual([b'k.with.dots', b'1.5', 2],
                         self.script(keys=['k.with.dots'], args=[1.5]))

    def test_a_script_the_server_lacks_is_loaded_once(self):
        self.direct(keys=['k'], args=[1])
        self.redis.script_flush()
        with redis_store.RoundTrips() as trips:
            self.assertEqual([b'k', b'1', 2],
                             self.direct(keys=['k'], args=[1]))
        self.assertEqual(['EVALSHA', 'SCRIPT', 'EVALSHA'], trips.sent)

    def test_a_script_error_leaves_the_connection_usable(self):
        self.redis.set('k', 'not a number')
        self.assertRaises(exceptions.ResponseError, self.direct,
                          keys=['k'], args=[1])
        pool = self.redis.connection_pool
        self.assertEqual(1, len(pool._available_connections))
        self.assertEqual([b'j', b'1', 1], self.direct(keys=['j'], args=[1]))
        self.assertEqual(0, len(pool._in_use_connections))

    def test_a_connection_the_server_closed_is_made_again(self):
        self.direct(keys=['k'], args=[1])
        self.redis.client_kill_filter(_type='normal', skipme=False)
        self.assertEqual([b'k', b'1', 2], self.direct(keys=['k'], args=[1]))

    def test_a_pipeline_queues_the_registered_script(self):
        with self.redis.pipeline() as pipe:
            self.direct(keys=['k'], args=[1], client=pipe)
            self.direct(keys=['k'], args=[1], client=pipe)
            self.assertEqual([[b'k', b'1', 1], [b'k', b'1', 2]],
                             pipe.execute())
