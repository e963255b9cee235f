"""``zaqar-delay-devserver`` stops cleanly, as a user stops it.

Under tox, a Ctrl-C also makes tox signal the command again at once;
``tools/smoke_devserver.py`` (run by ``.ci/run``) checks that case
through ``tox -e devserver`` itself.
"""

import os
import re
import signal
import socket
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


class TakenPortTest(testtools.TestCase):

    def test_a_port_taken_before_the_server_binds_it_is_picked_again(self):
        from zaqar_delay.cmd import devserver
        stack = devserver.Stack()
        self.addCleanup(stack.cleanup)
        taken = socket.socket()
        taken.bind(('127.0.0.1', 0))
        taken.listen()
        self.addCleanup(taken.close)
        stack.port = taken.getsockname()[1]
        stack.url = 'http://127.0.0.1:%d' % stack.port
        stack.start()
        self.assertNotEqual(taken.getsockname()[1], stack.port)
        with open(stack.log_path) as log:
            self.assertIn('Address already in use', log.read())


class PushTest(testtools.TestCase):

    def test_a_webhook_subscription_gets_a_delayed_message_when_due(self):
        import requests

        from tests.fixtures import receiver
        from zaqar_delay.cmd import devserver

        stack = devserver.Stack(pushes=True).start()
        self.addCleanup(stack.cleanup)
        hook = receiver.Receiver()
        self.addCleanup(hook.stop)
        base = stack.url + '/v2/queues/reminders'
        headers = {'Client-ID': '6f5c2e8a-3b1d-4c7e-9a2f-1d8b7e6c5a43',
                   'X-Project-ID': 'demo'}
        for method, path, body in (
                ('put', '', {'_default_message_delay': 30}),
                ('post', '/subscriptions', {'subscriber': hook.url,
                                            'ttl': 3600}),
                ('post', '/messages', {'messages': [
                    {'body': 'in 2 s', 'ttl': 300, 'delay': 2}]})):
            reply = getattr(requests, method)(base + path, json=body,
                                              headers=headers, timeout=30)
            self.assertLess(reply.status_code, 300, reply.text)
        posted = time.time()
        self.assertEqual(1, hook.wait_for(1, 30))
        (at, body), = hook.got
        self.assertEqual('in 2 s', body['body'])
        self.assertGreaterEqual(at, posted + 1)     # d >= post's second + 2
