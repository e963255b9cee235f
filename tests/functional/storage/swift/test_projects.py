"""Projects with dots in their ids keep apart on ``swift.delay``, with
``redis.delay``'s management store (``tests.common.project_pairs``;
upstream's redis management store mixes their queues up)."""

from tests.common import project_pairs
from tests.fixtures import storage
from tests.fixtures import swift_store
from zaqar_delay.storage.redis import control
from zaqar_delay.storage.swift import driver


class ProjectPairsTest(project_pairs.ProjectPairs,
                       swift_store.DelayTestBase):

    def make_drivers(self, conf):
        return storage.drivers(conf, control.ControlDriver,
                               driver.DataDriver)
