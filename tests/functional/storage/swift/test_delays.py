"""The delay behaviour suite on ``swift.delay``."""

from zaqar.storage import pipeline
from zaqar.tests import base as zaqar_base

from tests.functional.storage import behaviour
from tests.functional.storage.swift import base


class SwiftDelayTestBase(base.SwiftMixin, zaqar_base.TestBase):
    config_file = base.CONF

    def setUp(self):
        super().setUp()
        self.control, self.driver = base.drivers(self.conf)
        self.queues = pipeline.DataDriver(self.conf, self.driver,
                                          self.control).queue_controller


class SwiftDelayBehaviourTest(behaviour.DelayBehaviour, SwiftDelayTestBase):
    pass
