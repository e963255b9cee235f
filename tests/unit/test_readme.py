"""The README's fresh-machine commands are the ones CI runs."""

import importlib.util
import os

import testtools

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def _tool(name):
    """A script of tools/, loaded as a module (tools/ is no package)."""
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(TOP, 'tools', name + '.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


smoke_devserver = _tool('smoke_devserver')


class ReadmeTest(testtools.TestCase):

    def test_two_commands_one_starts_the_main_job_one_runs_the_tests(self):
        serve, test = smoke_devserver.readme_commands()
        self.assertIn('tox -e devserver', serve)
        self.assertIn('tox', test)
        self.assertNotIn('sudo', serve + test)

    def test_ci_runs_the_readme_commands(self):
        with open(os.path.join(TOP, '.ci', 'run')) as f:
            steps = [line.strip() for line in f
                     if line.strip() and not line.lstrip().startswith('#')]
        _, test = smoke_devserver.readme_commands()
        # The first command is run by the smoke script, which reads it
        # from the README; the second is run as written there; then the
        # slow functional tests that tox leaves out.
        self.assertEqual(['python3 tools/smoke_devserver.py', test,
                          'python3 -m tox -e slow'], steps[-3:])
