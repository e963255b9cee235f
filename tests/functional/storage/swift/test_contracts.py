"""The backend contracts (``tests.common.contracts``) on ``swift.delay``."""

from tests.common import contracts
from tests.fixtures import swift_store


class SwiftContractsTest(contracts.Contracts, swift_store.DelayTestBase):
    pass
