"""The delay behaviour suite on ``mongodb.delay`` over mongomock.

No server and no network: mongomock stands in for MongoDB, so this runs
with the unit tests. The functional tests run the same suite on a real
MongoDB wire-protocol server.
"""

import os
from unittest import mock

import fixtures
import mongomock
import pymongo
from zaqar.tests import base as zaqar_base

from tests.common import behaviour
from tests.fixtures import mongodb_store
from tests.fixtures import storage

CONF = """
[DEFAULT]
unreliable = True

[drivers:message_store:mongodb]
uri = mongodb://mongomock.invalid:27017
database = zd_messages

[drivers:management_store:mongodb]
uri = mongodb://mongomock.invalid:27017
database = zd_management
"""


class _Client(mongomock.MongoClient):
    """mongomock with what Zaqar's driver reads when it starts."""

    nodes = frozenset([('mongomock.invalid', 27017)])
    is_mongos = False
    write_concern = pymongo.WriteConcern()

    def __init__(self, *args, **kwargs):
        super().__init__()

    def server_info(self):
        return {'version': '7.0.0', 'versionArray': [7, 0, 0, 0]}


class MongomockTestBase(storage.DelayDrivers, zaqar_base.TestBase):

    def setUp(self):
        folder = self.useFixture(fixtures.TempDir()).path
        self.config_file = os.path.join(folder, 'mongomock.conf')
        with open(self.config_file, 'w') as conf:
            conf.write(CONF)
        server = _Client()
        self.useFixture(fixtures.MonkeyPatch(
            'zaqar.storage.mongodb.driver.pymongo.MongoClient',
            mock.Mock(return_value=server)))
        super().setUp()

    def make_drivers(self, conf):
        return mongodb_store.drivers(conf)


class MongomockBehaviourTest(behaviour.DelayBehaviour, MongomockTestBase):
    pass
