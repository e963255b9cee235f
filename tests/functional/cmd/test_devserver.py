"""``zaqar-delay-devserver`` stops cleanly, as a user stops it.

Under tox, a Ctrl-C also makes tox signal the command again at once;
``tools/smoke_devserver.py`` (run by ``.ci/run``) checks that case
through ``tox -e devserver`` itself.
"""

import os
import re
import signal
import subprocess
import sys
import time

import testtools

READY = re.compile(r'zaqar-server \(redis.delay\) at (http://\S+)\n'
                   r'redis-server on 127\.0\.0\.1:(\d+)')


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open('/proc/%d/stat' % pid) as f:
        return f.read().split(') ')[1][0] != 'Z'


def _children(pid):
    """The pids of ``pid``'s children."""
    found = []
    for entry in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open('/proc/%s/stat' % entry) as f:
                if int(f.read().split(') ')[1].split()[1]) == pid:
                    found.append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return found


class DevserverStopTest(testtools.TestCase):

    def start(self):
        server = subprocess.Popen(
            [os.path.join(os.path.dirname(sys.executable),
                          'zaqar-delay-devserver')],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True)
        self.addCleanup(lambda: server.poll() is None and server.kill())
        output = ''
        deadline = time.monotonic() + 60
        while not READY.search(output):
            self.assertLess(time.monotonic(), deadline, output)
            line = server.stdout.readline()
            self.assertTrue(line, output)
            output += line
        return server, _children(server.pid)

    def stops_with(self, signum, whole_group):
        server, children = self.start()
        self.assertEqual(2, len(children))      # redis-server, zaqar-server
        if whole_group:     # Ctrl-C in a terminal: the foreground group
            os.killpg(server.pid, signum)
        else:
            server.send_signal(signum)
        self.assertEqual(0, server.wait(30))
        self.assertEqual([], [pid for pid in children if _alive(pid)])

    def test_ctrl_c_stops_both_servers_and_exits_0(self):
        self.stops_with(signal.SIGINT, whole_group=True)

    def test_sigterm_stops_both_servers_and_exits_0(self):
        self.stops_with(signal.SIGTERM, whole_group=False)
