"""Unit tests of ``swift.delay``'s expiring writes."""

import types
from unittest import mock

import swiftclient
import testtools

from zaqar_delay.storage.swift import objects


class Client:
    """Records each write's X-Delete-At; fails the first ``refusals``."""

    def __init__(self, refusals=0, status=400):
        self.refusals, self.status, self.sent = refusals, status, []

    def _write(self, headers):
        self.sent.append(headers['X-Delete-At'])
        if len(self.sent) <= self.refusals:
            raise swiftclient.ClientException('refused',
                                              http_status=self.status)

    def put_object(self, container, name, content, headers=None, **kwargs):
        self._write(headers)

    def post_object(self, container, name, headers):
        self._write(headers)


def clock(**time):
    """The objects module's clock alone (time.time is the process's,
    which other threads call too)."""
    return mock.patch.object(objects, 'time', types.SimpleNamespace(
        time=mock.Mock(**time)))


class TestObjects(testtools.TestCase):

    def test_delete_at_is_never_past(self):
        with clock(return_value=1000.5):
            self.assertEqual('1001', objects.delete_at(900))
            self.assertEqual('2000', objects.delete_at(2000))

    def test_refused_write_is_tried_again_with_the_time_worked_out_again(self):
        for write in (
                lambda c: objects.put(c, 'box', 'name', b'', 1000),
                lambda c: objects.expire(c, 'box', 'name', 1000)):
            client = Client(refusals=1)
            with clock(side_effect=[999.0, 1000.2]):
                write(client)
            # The second try names a second after the clock it was made at.
            self.assertEqual(['1000', '1001'], client.sent)

    def test_second_refusal_and_other_errors_are_raised(self):
        client = Client(refusals=2)
        self.assertRaises(swiftclient.ClientException, objects.put,
                          client, 'box', 'name', b'', 1000)
        self.assertEqual(2, len(client.sent))
        client = Client(refusals=1, status=503)
        self.assertRaises(swiftclient.ClientException, objects.expire,
                          client, 'box', 'name', 1000)
        self.assertEqual(1, len(client.sent))

    def test_headers_are_kept(self):
        client = Client()
        calls = []
        client.post_object = lambda c, n, headers: calls.append(headers)
        objects.expire(client, 'box', 'name', 10 ** 10,
                       {'X-Object-Meta-A': 'b'})
        self.assertEqual([{'X-Object-Meta-A': 'b',
                           'X-Delete-At': str(10 ** 10)}], calls)
