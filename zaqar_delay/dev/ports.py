"""Free TCP ports on the loopback interface."""

import socket


def free_port():
    """A port of 127.0.0.1 that no socket is bound to now. Another
    process may take it before the server meant for it binds it: a
    caller starts that server again on a new port when it exits
    (``stack.Stack.start``)."""
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]
