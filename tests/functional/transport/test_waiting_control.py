"""``wsgi.delay``: due times shown and steered, on each store
(``tests/common/waiting_control.py``)."""

import testtools

from tests.common import waiting_control


class RedisWaitingControlTest(waiting_control.WaitingControl,
                              testtools.TestCase):
    store = 'redis.delay'


class PooledRedisWaitingControlTest(waiting_control.PooledWaitingControl,
                                    testtools.TestCase):
    store = 'redis.delay'


class MongoWaitingControlTest(waiting_control.WaitingControl,
                              testtools.TestCase):
    store = 'mongodb.delay'


class MongoFIFOWaitingControlTest(MongoWaitingControlTest):
    store = 'mongodb.fifo.delay'
