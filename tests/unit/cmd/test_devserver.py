"""What ``zaqar-delay-devserver`` prints: code and commands that work
as pasted."""

import os
import shlex
import textwrap

import fixtures
import testtools

from zaqar_delay.cmd import devserver


class ExampleTest(testtools.TestCase):

    def example(self, auth_url, password):
        text = devserver.EXAMPLE.format(
            url='http://127.0.0.1:1', hook='http://127.0.0.1:2/hook',
            auth=devserver._auth(auth_url, password))
        return textwrap.dedent(text.split(':\n', 1)[1])

    def test_the_noauth_example_is_python(self):
        code = self.example(None, None)
        compile(code, 'example', 'exec')
        self.assertIn("'os_project_id': 'demo'", code)

    def test_the_keystone_example_is_python(self):
        code = self.example('http://127.0.0.1:3/v3', 'pw')
        compile(code, 'example', 'exec')
        self.assertIn("'auth_url': 'http://127.0.0.1:3/v3'", code)

    def test_the_cli_line_and_openrc_say_the_same(self):
        folder = self.useFixture(fixtures.TempDir()).path
        settings = devserver.cli_settings('http://127.0.0.1:3/v3', 'pw')
        text = devserver._cli(settings, folder)
        command, = [line.strip() for line in text.splitlines()
                    if line.strip().startswith('openstack --')]
        argv = shlex.split(command)
        self.assertEqual(['messaging', 'queue', 'list'], argv[-3:])
        flags = dict(zip(argv[1:-3:2], argv[2:-3:2]))
        self.assertEqual('http://127.0.0.1:3/v3', flags['--os-auth-url'])
        self.assertEqual(('demo', 'pw'), (flags['--os-username'],
                                          flags['--os-password']))
        with open(os.path.join(folder, 'openrc')) as f:
            exported = dict(line.split(' ', 1)[1].strip().split('=', 1)
                            for line in f)
        self.assertEqual(settings, exported)
        self.assertEqual(len(settings) - 1, len(flags))
