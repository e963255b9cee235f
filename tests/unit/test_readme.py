"""The README's fresh-machine commands are the ones CI runs."""

import os
import re

import testtools

from tests.common import tools

TOP = tools.TOP
smoke_devserver = tools.load('smoke_devserver')


class ReadmeTest(testtools.TestCase):

    def test_two_commands_one_starts_the_main_job_one_runs_the_tests(self):
        serve, test = smoke_devserver.readme_commands()
        self.assertTrue(serve.startswith(
            'python3 tools/run_tox.py -e devserver --notest && '), serve)
        self.assertEqual('python3 tools/run_tox.py -p', test)
        self.assertNotIn('sudo', serve + test)

    def test_no_pip_install_outside_a_virtualenv(self):
        # A PEP 668 Python (Debian 12, Ubuntu 24.04) refuses it.
        for command in smoke_devserver.readme_commands():
            self.assertNotIn('pip install', command)

    def test_ci_runs_the_readme_commands(self):
        with open(os.path.join(TOP, '.ci', 'run')) as f:
            steps = [line.strip() for line in f
                     if line.strip() and not line.lstrip().startswith('#')]
        # Each step's command, without what keeps its status or output.
        commands = [re.split(r' \|\| | > | &$', step)[0] for step in steps]
        _, test = smoke_devserver.readme_commands()
        # With a PEP 668 python3 first on PATH, the first command is run
        # by the smoke script, which reads it from the README; the second
        # is run as written there; then the slow functional tests that
        # tox leaves out.
        path = commands.index(
            'PATH="$(python3 tools/pep668.py .ci/bin):$PATH"')
        self.assertEqual('export PATH', commands[path + 1])
        smoke = commands.index('python3 tools/smoke_devserver.py')
        self.assertLess(path, smoke)
        self.assertLess(smoke, commands.index(test))
        self.assertLess(commands.index(test), commands.index(
            'python3 tools/run_tox.py -e slow'))
