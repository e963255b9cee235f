"""The exporter, the dispatcher and ``manage pushes`` on a live store:
where the exporter listens, and no upstream traceback in the output."""

import signal
import subprocess
import threading

import testtools

from tests.functional import cmd
from zaqar_delay.dev import ports
from zaqar_delay.dev import stack

# What Zaqar's Bootstrap logs at each start when osprofiler's notifier
# cannot be built (zaqar_delay.cmd.noise).
NOISE = ('osprofiler', 'Traceback', 'ERROR')


def listening_on(port):
    """The IPv4 addresses that listen on ``port`` (/proc/net/tcp)."""
    found = []
    with open('/proc/net/tcp') as f:
        for row in f.readlines()[1:]:
            local, state = row.split()[1], row.split()[3]
            address, hex_port = local.split(':')
            if state == '0A' and int(hex_port, 16) == port:
                found.append('.'.join(str(int(address[i:i + 2], 16))
                                      for i in (6, 4, 2, 0)))
    return found


class ServicesTest(testtools.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.stack = stack.Stack(pushes=True).start()

    @classmethod
    def tearDownClass(cls):
        cls.stack.cleanup()
        super().tearDownClass()

    def assertQuiet(self, output):
        for word in NOISE:
            self.assertNotIn(word, output)

    def test_the_exporter_listens_on_loopback_only(self):
        port = ports.free_port()
        exporter = subprocess.Popen(
            [cmd.script('zaqar-delay-exporter'), '--config-file',
             self.stack.conf, '--port', str(port)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.addCleanup(lambda: exporter.poll() is None and exporter.kill())
        timer = threading.Timer(60, exporter.kill)     # a hung start
        timer.start()
        self.addCleanup(timer.cancel)
        first = exporter.stdout.readline()
        self.assertEqual('serving metrics on 127.0.0.1:%d\n' % port, first)
        self.assertEqual(['127.0.0.1'], listening_on(port))
        exporter.send_signal(signal.SIGINT)
        rest, _ = exporter.communicate(timeout=30)
        self.assertEqual(0, exporter.returncode, rest)
        self.assertQuiet(first + rest)

    def test_the_dispatcher_once(self):
        done, _ = cmd.run('zaqar-delay-dispatcher', '--config-file',
                          self.stack.conf, '--once')
        self.assertEqual((0, 'pushed 0\n'), (done.returncode, done.stdout))
        self.assertQuiet(done.stderr)

    def test_manage_pushes(self):
        done, _ = cmd.run('zaqar-delay-manage', '--config-file',
                          self.stack.conf, 'pushes', 'pending')
        self.assertEqual(0, done.returncode, done.stderr)
        self.assertEqual('0 pending pushes\n', done.stderr)
