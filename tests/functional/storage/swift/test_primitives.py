"""What Swift guarantees, checked on the real Swift the tests start.

A Swift store for delayed queues can only rely on these: create-only
writes (``If-None-Match: *``), expiry that frees a name for the next
create-only write, expiry moved by POST, deletes conditional on the
expiry (``X-If-Delete-At``), and listings in name order bounded by
``marker``/``end_marker``/``limit``.
"""

import time
import uuid

import swiftclient
import testtools

from tests.fixtures import openstack
from tests.fixtures import services


class SwiftPrimitivesTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        stack = services.keystone_swift()
        self.conn = swiftclient.Connection(
            authurl=stack.keystone + '/v3', user=openstack.ADMIN,
            key=openstack.PASSWORD, auth_version='3',
            os_options={'project_name': openstack.ADMIN,
                        'user_domain_name': 'Default',
                        'project_domain_name': 'Default',
                        'region_name': openstack.REGION})
        self.container = 'c-' + uuid.uuid4().hex[:8]
        self.conn.put_container(self.container)

    def create_only(self, name, **headers):
        headers['If-None-Match'] = '*'
        self.conn.put_object(self.container, name, b'x', headers=headers)

    def test_create_only_write_refuses_an_existing_name(self):
        self.create_only('lock')
        error = self.assertRaises(swiftclient.ClientException,
                                  self.create_only, 'lock')
        self.assertEqual(412, error.http_status)

    def test_expiry_frees_the_name(self):
        self.create_only('lock', **{'X-Delete-After': '1'})
        time.sleep(1.5)
        self.create_only('lock')

    def test_post_moves_the_expiry(self):
        # A lock that would end soon: if it ended before the POST (a busy
        # machine), the test starts again with a longer one.
        for seconds in (2, 10, 60):
            name = 'lock-%d' % seconds
            ends = time.time() + seconds
            self.create_only(name, **{'X-Delete-At': str(int(ends))})
            try:
                self.conn.post_object(self.container, name,
                                      {'X-Delete-After': '600'})
            except swiftclient.ClientException as exc:
                if exc.http_status != 404:
                    raise
                continue
            break
        time.sleep(max(0, ends - time.time()) + 1.1)
        error = self.assertRaises(swiftclient.ClientException,
                                  self.create_only, name)
        self.assertEqual(412, error.http_status)

    def test_delete_conditional_on_the_expiry(self):
        self.create_only('lock', **{'X-Delete-At': '9999999990'})
        error = self.assertRaises(
            swiftclient.ClientException, self.conn.delete_object,
            self.container, 'lock', headers={'X-If-Delete-At': '9999999991'})
        self.assertEqual(412, error.http_status)
        self.conn.delete_object(self.container, 'lock',
                                headers={'X-If-Delete-At': '9999999990'})
        self.create_only('lock')

    def test_listing_is_in_name_order_and_bounded(self):
        for name in ('0000000105.b', '0000000100.a', '0000000200.c',
                     '0000000101.d'):
            self.create_only(name)
        _, objects = self.conn.get_container(
            self.container, marker='0000000100.a',
            end_marker='0000000150', limit=10)
        self.assertEqual(['0000000101.d', '0000000105.b'],
                         [o['name'] for o in objects])
