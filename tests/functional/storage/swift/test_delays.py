"""The delay behaviour suite on ``swift.delay``."""

from tests.common import behaviour
from tests.fixtures import swift_store


class SwiftDelayBehaviourTest(behaviour.DelayBehaviour,
                              swift_store.DelayTestBase):
    pass
