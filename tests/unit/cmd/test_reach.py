"""Which stores a command checks before it loads them."""

import os

import fixtures
import testtools

from zaqar_delay.cmd import reach
from zaqar_delay import errors

CONF = """[DEFAULT]
pooling = {pooling}
[drivers]
message_store = {store}
management_store = {management}
[drivers:message_store:redis]
uri = redis://127.0.0.1:7001?dbid=0
[drivers:message_store:mongodb]
uri = mongodb://zaqar:s3cret@db.example:27017
[drivers:message_store:swift]
auth_url = http://keystone.example/v3
[drivers:management_store:redis]
uri = redis://127.0.0.1:7002?dbid=1
"""


class StoresTest(testtools.TestCase):

    def stores(self, store='redis.delay', pooling=False,
               management='redis', **kwargs):
        folder = self.useFixture(fixtures.TempDir()).path
        path = os.path.join(folder, 'zaqar.conf')
        with open(path, 'w') as f:
            f.write(CONF.format(store=store, pooling=pooling,
                                management=management))
        return reach.stores(reach.zaqar_conf([path]), **kwargs)

    def test_the_message_and_management_stores(self):
        self.assertEqual(
            [('message store (mongodb.delay)', 'mongodb',
              'mongodb://zaqar:s3cret@db.example:27017'),
             ('management store (redis)', 'redis',
              'redis://127.0.0.1:7002?dbid=1')],
            self.stores('mongodb.delay'))

    def test_pooled_the_management_store_only(self):
        self.assertEqual(['management store (redis)'],
                         [role for role, _, _ in self.stores(pooling=True)])

    def test_swift_is_checked_at_its_keystone(self):
        self.assertEqual(('swift', 'http://keystone.example/v3'),
                         self.stores('swift.delay')[0][1:])

    def test_mongodb_without_a_uri_is_checked_where_pymongo_goes(self):
        # Zaqar's defaults: both stores mongodb, neither with a uri.
        folder = self.useFixture(fixtures.TempDir()).path
        path = os.path.join(folder, 'zaqar.conf')
        open(path, 'w').close()
        self.assertEqual(
            [('message store (mongodb)', 'mongodb',
              'mongodb://localhost:27017'),
             ('management store (mongodb)', 'mongodb',
              'mongodb://localhost:27017')],
            reach.stores(reach.zaqar_conf([path])))

    def test_a_uri_given_is_the_one_store(self):
        self.assertEqual([('store', 'redis', 'redis://h:1')], self.stores(
            uri='redis://h:1', backend='redis'))

    def test_a_password_is_not_shown(self):
        self.assertEqual('mongodb://zaqar:***@db.example:27017',
                         reach.hidden('mongodb://zaqar:s3cret@db.example:'
                                      '27017'))
        self.assertEqual('redis://h:1?dbid=0',
                         reach.hidden('redis://h:1?dbid=0'))

    def test_a_store_of_no_delay_driver_is_not_checked(self):
        self.assertEqual(['message store (redis.delay)'], [
            role for role, _, _ in self.stores(management='sqlalchemy')])
        reach.check([('store', 'sqlalchemy', 'sqlite://')])

    def test_a_store_is_pinged_by_its_drivers_probe(self):
        # Nothing listens on port 1 of this machine.
        for kind, where in (('redis', 'redis://127.0.0.1:1'),
                            ('mongodb', 'mongodb://127.0.0.1:1'),
                            ('swift', 'http://127.0.0.1:1/v3')):
            exc = self.assertRaises(errors.CommandFailure, reach.check,
                                    [('store', kind, where)], 0.5)
            self.assertIn('cannot reach the store at %s: ' % where,
                          str(exc))
