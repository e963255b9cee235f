"""``wsgi.delay``: due times shown and steered, on each store
(``tests/common/waiting_control.py``)."""

import testtools

from tests.common import waiting_control
from tests.fixtures import services


class RedisWaitingControlTest(waiting_control.WaitingControl,
                              testtools.TestCase):
    store = 'redis.delay'


class PooledRedisWaitingControlTest(waiting_control.PooledWaitingControl,
                                    testtools.TestCase):
    store = 'redis.delay'


class MongoWaitingControlTest(waiting_control.WaitingControl,
                              testtools.TestCase):
    store = 'mongodb.delay'

    @classmethod
    def stack_options(cls):
        return {'mongodb_url': services.mongo_server().url}


class MongoFIFOWaitingControlTest(MongoWaitingControlTest):
    store = 'mongodb.fifo.delay'
