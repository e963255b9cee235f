"""``zaqar-delay-devserver`` stops cleanly, as a user stops it, and what
it prints works as pasted: its log is kept, its example's pushes arrive
at its receiver, and ``--keystone`` serves ``openstack messaging``.

Under tox, a Ctrl-C also makes tox signal the command again at once;
``tools/smoke_devserver.py`` (run by ``.ci/run``) checks that case
through ``tox -e devserver`` itself.
"""

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time

import testtools

READY = re.compile(r'zaqar-server \(redis.delay\) at (http://\S+)\n'
                   r'redis-server on 127\.0\.0\.1:(\d+)')
CONFIG = re.compile(r'^config: (\S+)$', re.MULTILINE)


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
        while not READY.search(output) or not CONFIG.search(output):
            self.assertLess(time.monotonic(), deadline, output)
            line = server.stdout.readline()
            self.assertTrue(line, output)
            output += line
        # The run's folder, which it keeps after exit.
        self.addCleanup(shutil.rmtree, os.path.dirname(
            CONFIG.search(output).group(1)), True)
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


class Devserver:
    """``zaqar-delay-devserver argv`` in a session of its own (as in a
    terminal), its output read as it comes (``output``)."""

    def __init__(self, test, *argv):
        self.process = subprocess.Popen(
            [os.path.join(os.path.dirname(sys.executable),
                          'zaqar-delay-devserver')] + list(argv),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            stdin=subprocess.DEVNULL, start_new_session=True)
        test.addCleanup(self.kill)
        self.lines = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in iter(self.process.stdout.readline, ''):
            self.lines.append(line)

    @property
    def output(self):
        return ''.join(self.lines)

    def wait_for(self, pattern, timeout):
        """The match of ``pattern`` in the output, waiting for it."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.output, re.MULTILINE)
            if found:
                return found
            if self.process.poll() is not None or \
                    time.monotonic() > deadline:
                raise AssertionError('no %r in:\n%s' % (pattern,
                                                        self.output))
            time.sleep(0.1)

    def example(self):
        """The python-zaqarclient example it printed, as code."""
        text = self.output.split('Try it with python-zaqarclient:\n\n')[1]
        return textwrap.dedent(text.split('\n\n')[0])

    def stop(self):
        """Ctrl-C; its exit status."""
        os.killpg(self.process.pid, signal.SIGINT)
        code = self.process.wait(60)
        self.reader.join(10)
        return code

    def kill(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


class DevserverUseTest(testtools.TestCase):
    """What the devserver prints works as a user would use it."""

    def started(self, *argv, timeout=60):
        server = Devserver(self, *argv)
        server.wait_for('^Press Ctrl-C to stop', timeout)
        folder = os.path.dirname(server.wait_for(
            r'^config: (\S+)', 0).group(1))
        self.addCleanup(shutil.rmtree, folder, True)
        return server, folder

    def run_example(self, code):
        done = subprocess.run([sys.executable, '-c', code],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(0, done.returncode, done.stderr)
        return done.stdout

    def test_its_log_is_named_at_start_and_kept_after_exit(self):
        server, folder = self.started()
        log = server.wait_for(r'^log: (\S+) \(kept after exit\)$', 0)
        self.assertEqual(os.path.join(folder, 'zaqar.log'), log.group(1))
        self.assertEqual(0, server.stop())
        self.assertIn('logs kept in %s\n' % folder, server.output)
        with open(log.group(1)) as f:
            self.assertIn('Serving on host', f.read())

    def test_its_example_s_pushes_arrive_at_its_receiver(self):
        server, folder = self.started()
        code = server.example()
        self.assertIn("'_default_message_delay': 30", code)
        # The same example, with a message due in 2 s rather than 30.
        printed = self.run_example(code.replace(
            "'_default_message_delay': 30", "'_default_message_delay': 2"))
        self.assertEqual("['now']", printed.splitlines()[0])
        for body in ('now', 'in 30 s'):
            server.wait_for(r'^\d\d:\d\d:\d\d push to reminders: .*'
                            r'"body": "%s"' % body, 60)
        self.assertEqual(0, server.stop())
        with open(os.path.join(folder, 'pushes.log')) as f:
            self.assertEqual(2, len(f.readlines()))

    def test_openstack_messaging_with_keystone(self):
        # Keystone's virtualenv may be built first (minutes).
        server, folder = self.started('--keystone', timeout=900)
        self.run_example(server.example())          # makes 'reminders'
        command = shlex.split(server.wait_for(
            r'^  (openstack --os-auth-url .* messaging queue list)$',
            0).group(1))
        command[0] = os.path.join(os.path.dirname(sys.executable),
                                  'openstack')
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=120, env=dict(
                                  os.environ, OS_CLOUD='',
                                  OS_CLIENT_CONFIG_FILE='/dev/null'))
        self.assertEqual(0, done.returncode, done.stderr)
        self.assertIn('reminders', done.stdout)
        self.assertEqual(0, server.stop())
