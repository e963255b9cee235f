"""Worker processes on ``mongodb.delay`` (secantusdb) killed with kill
-9 at random moments (``tests/common/kill9.py``)."""

from zaqar.conf import drivers_message_store_mongodb as message_opts

from tests.common import kill9
from tests.fixtures import mongodb_store


class MongoKill9Test(kill9.KillTests, mongodb_store.DelayTestBase):

    store = 'mongodb.delay'
    conf_file = mongodb_store.CONF

    def worker_extra(self):
        return {'database': self.conf[message_opts.GROUP_NAME].database}
