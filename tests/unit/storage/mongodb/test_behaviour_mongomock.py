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
from zaqar.storage import pipeline
from zaqar.tests import base as zaqar_base

from tests.functional.storage import behaviour
from tests.functional.storage.mongodb import base

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


class MongomockTestBase(zaqar_base.TestBase):

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
        self.control, self.driver = base.drivers(self.conf)
        self.queues = pipeline.DataDriver(self.conf, self.driver,
                                          self.control).queue_controller


class MongomockBehaviourTest(behaviour.DelayBehaviour, MongomockTestBase):
    pass
