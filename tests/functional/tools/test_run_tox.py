"""tools/run_tox.py bootstraps tox into a virtualenv of its own.

A virtualenv made ``--without-pip`` stands in for a base Python with no
pip module (a minimal image without ``python3-pip``); a virtualenv
without pip whose base has none is what Debian without ``python3-venv``
(no ensurepip) leaves, and then pip comes from its wheel on PyPI.
"""

import os
import subprocess
import sys

import fixtures
import testtools

from tests.common import tools

run_tox = tools.load('run_tox')


class BootstrapTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.tmp = self.useFixture(fixtures.TempDir()).path
        self.base = os.path.join(self.tmp, 'base')
        subprocess.run([sys.executable, '-m', 'venv', '--without-pip',
                        self.base], check=True)
        self.base_python = os.path.join(self.base, 'bin', 'python')

    def test_tox_in_a_virtualenv_of_its_own(self):
        venv = os.path.join(self.tmp, 'bootstrap')
        self.assertFalse(run_tox.ready(venv))
        run_tox.bootstrap(venv, self.base_python)
        self.assertTrue(run_tox.ready(venv))
        out = subprocess.run([run_tox.python(venv), '-m', 'tox',
                              '--version'], capture_output=True, text=True,
                             check=True).stdout
        self.assertTrue(out.startswith('4.'), out)
        # Ready: a second bootstrap changes nothing.
        stamp = os.stat(run_tox.python(venv)).st_mtime_ns
        run_tox.bootstrap(venv, self.base_python)
        self.assertEqual(stamp, os.stat(run_tox.python(venv)).st_mtime_ns)

    def test_pip_from_pypi_when_nothing_can_lend_it(self):
        venv = os.path.join(self.tmp, 'nopip')
        subprocess.run([self.base_python, '-m', 'venv', '--without-pip',
                        venv], check=True)
        self.assertFalse(run_tox._has_pip(self.base_python))
        run_tox.install_pip(venv, self.base_python)
        self.assertTrue(run_tox._has_pip(run_tox.python(venv)))

    def test_a_bootstrap_that_died_is_made_again(self):
        venv = os.path.join(self.tmp, 'bootstrap')
        run_tox.make_venv(venv, self.base_python)   # died before tox
        self.assertFalse(run_tox.ready(venv))
        run_tox.bootstrap(venv, self.base_python)
        self.assertTrue(run_tox.ready(venv))
