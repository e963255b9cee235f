import socket

import testtools

from zaqar_delay.dev import ports


class FreePortTest(testtools.TestCase):

    def test_the_port_can_be_bound_on_loopback(self):
        port = ports.free_port()
        with socket.socket() as sock:
            sock.bind(('127.0.0.1', port))
            self.assertEqual(port, sock.getsockname()[1])
