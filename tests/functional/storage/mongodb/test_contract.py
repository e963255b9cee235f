"""Zaqar's storage contract tests, run against ``mongodb.delay``."""

from zaqar.storage.mongodb import driver as upstream_driver
from zaqar.tests.unit.storage import base

from tests.common import contract
from tests.fixtures import mongodb_store
from zaqar_delay.storage.mongodb import claims
from zaqar_delay.storage.mongodb import driver
from zaqar_delay.storage.mongodb import messages


class _Driver(mongodb_store.MongoMixin):
    driver_class = driver.DataDriver
    control_driver_class = upstream_driver.ControlDriver
    config_file = mongodb_store.CONF


class MongoDelayMessagesTest(_Driver, base.MessageControllerTest):
    controller_class = messages.MessageController
    gc_interval = 60


class MongoDelayClaimsTest(contract.FrozenClockDelayTest, _Driver,
                           base.ClaimControllerTest):
    controller_class = claims.ClaimController


class MongoDelayFIFOMessagesTest(_Driver, base.MessageControllerTest):
    driver_class = driver.FIFODataDriver
    controller_class = messages.FIFOMessageController
    gc_interval = 60
