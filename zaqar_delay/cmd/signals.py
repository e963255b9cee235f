"""Stopping a command at SIGINT or SIGTERM, with no work in a handler.

A Python signal handler runs in the main thread between any two
bytecodes, also inside ``threading.Event.wait`` while it holds the
event's lock: an ``Event.set`` there waits for that lock forever (it is
not reentrant). So the commands' handlers do nothing; Python's C
handler writes the signal's number to a pipe (``signal.set_wakeup_fd``)
and a thread reading that pipe sets the event.
"""

import os
import signal
import threading

STOP = (signal.SIGINT, signal.SIGTERM)


def stop_event(ignore_again=False):
    """A ``threading.Event`` set at the first SIGINT or SIGTERM; with
    ``ignore_again`` the signals after the first are ignored (stopping
    is never cut short). Call it from the main thread, once."""
    readable, writable = os.pipe()
    os.set_blocking(writable, False)
    signal.set_wakeup_fd(writable, warn_on_full_buffer=False)
    event = threading.Event()

    def handler(signum, frame):
        if ignore_again:
            for stop in STOP:
                signal.signal(stop, signal.SIG_IGN)

    def read():
        while os.read(readable, 1)[0] not in STOP:
            pass    # another signal with a Python handler
        event.set()

    for signum in STOP:
        signal.signal(signum, handler)
    threading.Thread(target=read, name='stop-signals', daemon=True).start()
    return event
