"""Bad queue metadata is refused at PUT and PATCH on ``swift.delay``
(the suite of tests/common/queue_metadata.py)."""

from swiftclient import client as swift_client
import testtools

from tests.common import queue_metadata
from tests.fixtures import openstack
from tests.fixtures import services
from tests.fixtures import zaqar_server


class SwiftDelayBadMetadataTest(queue_metadata.BadMetadataTests,
                                testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.stack = zaqar_server.ZaqarServer(
            message_store='swift.delay', max_delay=queue_metadata.MAX_DELAY,
            swift=services.keystone_swift().swift_store()).start()

    @classmethod
    def tearDownClass(cls):
        cls.stack.cleanup()
        super().tearDownClass()

    def test_a_refused_put_leaves_no_queue_in_the_store(self):
        # The queue stage that makes a queue's message container runs
        # after the check, never for a refused queue.
        stack = services.keystone_swift()
        conn = swift_client.Connection(
            authurl=stack.keystone + '/v3', user=openstack.ADMIN,
            key=openstack.PASSWORD, auth_version='3', os_options={
                'project_name': openstack.ADMIN,
                'user_domain_name': 'Default',
                'project_domain_name': 'Default',
                'region_name': openstack.REGION})

        def containers(name):
            return [c['name'] for c in conn.get_account(full_listing=True)[1]
                    if c['name'].startswith('zaqar_message:%s:' % name)]
        self.assertEqual(201, self.request('PUT', 'good.put', {})[0])
        self.assertEqual(1, len(containers('good.put')))
        status, body = self.request('PUT', 'bad.put',
                                    {'_retry_backoff': {'initial': 0}})
        self.assertEqual(400, status, body)
        self.assertEqual([], containers('bad.put'))
