"""``zaqar_delay.cmd.signals``: a stop event set at SIGINT or SIGTERM, in
a child Python (signal handlers and the wakeup fd are the process's)."""

import os
import signal
import subprocess
import sys
import textwrap

import testtools

# Bound of a child's run: each does well under a second of work.
TIMEOUT = 30

PRELUDE = """
import os, signal, sys, threading, time
from zaqar_delay.cmd import signals
stop = signals.stop_event({ignore_again})
print('ready', flush=True)
"""


class StopEventTest(testtools.TestCase):

    def _child(self, body, ignore_again=False):
        code = PRELUDE.format(ignore_again=ignore_again) + \
            textwrap.dedent(body)
        child = subprocess.Popen(
            [sys.executable, '-c', code], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        self.addCleanup(child.kill)
        self.assertEqual('ready\n', self._line(child))
        return child

    @staticmethod
    def _line(child):
        """The child's next line, read from the pipe a byte at a time:
        what follows stays there for ``communicate`` (which reads the
        pipe, not ``child.stdout``'s buffer)."""
        line = b''
        while not line.endswith(b'\n'):
            byte = os.read(child.stdout.fileno(), 1)
            if not byte:
                break
            line += byte
        return line.decode()

    def _ends(self, child):
        out, err = child.communicate(timeout=TIMEOUT)
        self.assertEqual(0, child.returncode, err)
        return out

    def test_sigterm_and_sigint_set_it(self):
        for signum in (signal.SIGTERM, signal.SIGINT):
            child = self._child("""
                print(stop.wait(%d), flush=True)
            """ % TIMEOUT)
            child.send_signal(signum)
            self.assertEqual('True\n', self._ends(child))

    def test_a_signal_inside_the_events_own_lock_does_not_hang(self):
        # The handler runs while the main thread holds the event's lock
        # (as inside Event.wait): an Event.set in it would wait forever.
        child = self._child("""
            with stop._cond:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.1)
            print(stop.wait(%d), flush=True)
        """ % TIMEOUT)
        self.assertEqual('True\n', self._ends(child))

    def test_other_signals_do_not_set_it(self):
        child = self._child("""
            signal.signal(signal.SIGUSR1, lambda *_: print('usr1'))
            # To this thread: pthread_kill runs its handler at once.
            signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)
            print(stop.wait(0.5), flush=True)
        """)
        self.assertEqual('usr1\nFalse\n', self._ends(child))

    def test_ignore_again_lets_the_stopping_finish(self):
        child = self._child("""
            stop.wait(%d)
            print('stopping', flush=True)
            time.sleep(0.5)
            print('stopped', flush=True)
        """ % TIMEOUT, ignore_again=True)
        child.send_signal(signal.SIGINT)
        self.assertEqual('stopping\n', self._line(child))
        child.send_signal(signal.SIGINT)
        child.send_signal(signal.SIGTERM)
        self.assertEqual('stopped\n', self._ends(child))
