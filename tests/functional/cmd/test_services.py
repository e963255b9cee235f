"""The dispatcher and ``manage pushes`` on a live store: no upstream
traceback in the output."""

import testtools

from tests.functional import cmd
from zaqar_delay.dev import stack

# What Zaqar's Bootstrap logs at each start when osprofiler's notifier
# cannot be built (zaqar_delay.cmd.noise).
NOISE = ('osprofiler', 'Traceback', 'ERROR')


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
