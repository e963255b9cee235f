"""``direct.pack`` writes what redis-py's packer writes."""

from redis import connection
from redis import exceptions
import testtools

from zaqar_delay.storage.redis import direct


def _redis_py(args):
    return b''.join(bytes(part) for part in
                    connection.Connection().pack_command(*args))


class PackTest(testtools.TestCase):

    def test_each_kind_of_argument_as_redis_py_packs_it(self):
        args = ('EVALSHA', 'a' * 40, 3, b'p%2Eq.queue.with.dots.messages',
                'qu\u00e9ue', b'', '', 0, -7, 1800000000123,
                1800000000.123, 0.1, 1e-07, b'\x80\x00\xff' * 50)
        self.assertEqual(_redis_py(args), direct.pack(args))

    def test_a_long_argument(self):
        args = ('EVALSHA', 'b' * 40, 0, b'x' * 100000)
        self.assertEqual(_redis_py(args), direct.pack(args))

    def test_what_redis_py_refuses_is_refused(self):
        for arg in (None, True, False, [1], {'a': 1}):
            self.assertRaises(exceptions.DataError, _redis_py, ('GET', arg))
            self.assertRaises(exceptions.DataError, direct.pack,
                              ('GET', arg))
