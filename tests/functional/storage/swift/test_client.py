"""``swift.client.Client`` on the real Swift: kept connections, answers
as swiftclient gives them, a connection the server closed, a token
Swift refuses."""

import uuid

import swiftclient

from tests.fixtures import swift_store
from zaqar_delay.storage.swift import client


class ClientTest(swift_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.client = self.driver.connection
        self.upstream = self.client._wrapper
        self.container = 'c-' + uuid.uuid4().hex[:8] + ':é'
        self.client.put_container(self.container)

    def test_is_the_drivers_client(self):
        self.assertIsInstance(self.client, client.Client)

    def test_keeps_one_connection_for_requests_one_after_another(self):
        for conn in self.client._idle:
            conn.close()
        del self.client._idle[:]
        opened = []
        make = self.client._connection

        def counting(endpoint):
            conn, kept = make(endpoint)
            if not kept:
                opened.append(conn)
            return conn, kept
        self.client._connection = counting
        for i in range(10):
            self.client.put_object(self.container, 'o%d' % i, b'x')
            self.client.get_object(self.container, 'o%d' % i)
        self.assertEqual(1, len(opened))

    def test_answers_as_swiftclient(self):
        name = 'a/b:é ?#%'
        etag = self.client.put_object(
            self.container, name, 'héllo', content_type='text/plain',
            headers={'X-Delete-After': '3600', 'X-Object-Meta-A': '1'})
        ours = self.client.get_object(self.container, name)
        theirs = self.upstream.get_object(self.container, name)
        self.assertEqual(theirs[1], ours[1])
        self.assertEqual('héllo'.encode(), ours[1])
        self.assertEqual(etag, ours[0]['etag'])
        for key in ('x-delete-at', 'x-object-meta-a', 'content-type',
                    'etag', 'content-length'):
            self.assertEqual(theirs[0][key], ours[0][key])
        self.assertEqual(
            self.upstream.head_object(self.container, name)['x-delete-at'],
            self.client.head_object(self.container, name)['x-delete-at'])
        self.client.post_object(self.container, name,
                                {'X-Object-Meta-A': '2'})
        self.assertEqual('2', self.upstream.head_object(
            self.container, name)['x-object-meta-a'])
        self.client.delete_object(self.container, name)
        error = self.assertRaises(swiftclient.ClientException,
                                  self.client.get_object, self.container,
                                  name)
        self.assertEqual(404, error.http_status)

    def test_create_only_write_is_refused_with_412(self):
        headers = {'If-None-Match': '*'}
        self.client.put_object(self.container, 'lock', b'1',
                               headers=headers)
        error = self.assertRaises(swiftclient.ClientException,
                                  self.client.put_object, self.container,
                                  'lock', b'2', headers=headers)
        self.assertEqual(412, error.http_status)

    def test_listings_as_swiftclient(self):
        names = ['%03d:é' % i for i in range(25)]
        for name in names:
            self.client.put_object(self.container, name, b'')
        for kwargs in ({}, {'limit': 5}, {'marker': names[3]},
                       {'end_marker': names[7], 'limit': 100},
                       {'prefix': '01'}, {'limit': 4, 'full_listing': True},
                       {'query_string': 'reverse=on', 'limit': 3}):
            self.assertEqual(
                self.upstream.get_container(self.container, **kwargs)[1],
                self.client.get_container(self.container, **kwargs)[1],
                kwargs)
        self.assertEqual('25', self.client.head_container(
            self.container)['x-container-object-count'])
        empty = 'e-' + uuid.uuid4().hex[:8]
        self.client.put_container(empty)
        self.assertEqual([], self.client.get_container(empty)[1])
        self.client.delete_container(empty)
        error = self.assertRaises(swiftclient.ClientException,
                                  self.client.get_container, empty)
        self.assertEqual(404, error.http_status)

    def test_a_connection_the_server_closed_is_replaced(self):
        self.client.put_object(self.container, 'o', b'x')
        self.assertEqual(1, len(self.client._idle))
        # As when the server closes an idle kept-alive connection.
        self.client._idle[0].sock.shutdown(2)
        self.assertEqual(b'x', self.client.get_object(self.container,
                                                      'o')[1])

    def test_a_refused_token_is_renewed_once(self):
        tokens = ['not-a-token']
        session = self.upstream.session
        get_token = session.get_token
        self.patch(session, 'get_token',
                   lambda: tokens.pop() if tokens else get_token())
        self.client.put_object(self.container, 'o', b'x')
        self.assertEqual([], tokens)
        self.assertEqual(b'x', self.client.get_object(self.container,
                                                      'o')[1])
