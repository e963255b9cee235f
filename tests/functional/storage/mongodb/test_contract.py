"""Zaqar's storage contract tests, run against ``mongodb.delay``."""

from zaqar.storage.mongodb import driver as upstream_driver
from zaqar.tests.unit.storage import base

from tests.functional.storage import contract
from tests.functional.storage.mongodb import base as mongo_base
from zaqar_delay.storage.mongodb import claims
from zaqar_delay.storage.mongodb import driver
from zaqar_delay.storage.mongodb import messages


class _Driver(mongo_base.MongoMixin):
    driver_class = driver.DataDriver
    control_driver_class = upstream_driver.ControlDriver
    config_file = mongo_base.CONF


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
