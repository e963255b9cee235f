"""Zaqar's storage contract tests, run against ``swift.delay``."""

from zaqar.storage.redis import driver as redis_driver
from zaqar.tests.unit.storage import base

from tests.common import contract
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import claims
from zaqar_delay.storage.swift import driver
from zaqar_delay.storage.swift import messages


class _Driver(swift_store.SwiftMixin):
    driver_class = driver.DataDriver
    control_driver_class = redis_driver.ControlDriver
    config_file = swift_store.CONF


class SwiftDelayMessagesTest(_Driver, base.MessageControllerTest):
    controller_class = messages.MessageController
    gc_interval = 60


class SwiftDelayClaimsTest(contract.FrozenClockDelayTest, _Driver,
                           base.ClaimControllerTest):
    controller_class = claims.ClaimController
