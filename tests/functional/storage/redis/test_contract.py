"""Zaqar's storage contract tests, run against ``redis.delay``.

Zaqar's pooled variants are not run: with a redis management store,
upstream's pools controller cannot create a pool without a flavor (it
writes ``f: None``, which redis-py refuses), whatever the pool's driver.
The ``redis.delay://`` pool URI is tested in test_pooled.py instead.
"""

from zaqar.tests.unit.storage import base

from tests.common import contract
from tests.fixtures import redis_store
from zaqar_delay.storage.redis import control
from zaqar_delay.storage.redis import driver


class _Driver(redis_store.RedisMixin):
    driver_class = driver.DataDriver
    control_driver_class = control.ControlDriver
    config_file = redis_store.CONF


class RedisDelayMessagesTest(contract.CollectedExpiryTest, _Driver,
                             base.MessageControllerTest):
    controller_class = driver.DataDriver.message_class
    gc_interval = 1


class RedisDelayClaimsTest(contract.FrozenClockDelayTest, _Driver,
                           base.ClaimControllerTest):
    controller_class = driver.DataDriver.claim_class


class RedisDelayQueuesTest(_Driver, base.QueueControllerTest):
    controller_class = control.QueueController
