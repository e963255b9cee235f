"""Worker processes on ``swift.delay`` killed with kill -9 at random
moments (``tests/common/kill9.py``)."""

from tests.common import kill9
from tests.fixtures import swift_store


class SwiftKill9Test(kill9.KillTests, swift_store.DelayTestBase):

    store = 'swift.delay'
    conf_file = swift_store.CONF
