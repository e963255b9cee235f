"""kill -9 of a zaqar-delay-server while it moves messages, on each
store (``tests/common/move_kill9.py``)."""

import testtools

from tests.common import move_kill9


class RedisMoveKill9Test(move_kill9.MoveKill9, testtools.TestCase):
    store = 'redis.delay'


class MongoMoveKill9Test(move_kill9.MoveKill9, testtools.TestCase):
    store = 'mongodb.delay'
