"""The PySpark jobs without the ``pipeline`` extra: ``--help`` works,
and a run says what is missing in one line."""

import os

import fixtures
import testtools

from tests.functional import cmd


class WithoutPysparkTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        # A pyspark that cannot be imported, ahead of any installed one.
        folder = self.useFixture(fixtures.TempDir()).path
        with open(os.path.join(folder, 'pyspark.py'), 'w') as f:
            f.write('raise ModuleNotFoundError("No module named '
                    '\'pyspark\'", name="pyspark")\n')
        self.env = dict(os.environ, PYTHONPATH=folder)

    def test_help(self):
        for name in ('zaqar-delay-audit', 'zaqar-delay-schedule'):
            done, _ = cmd.run(name, '--help', env=self.env)
            self.assertEqual(0, done.returncode, done.stderr)
            self.assertIn('usage: ' + name, done.stdout)

    def test_a_run_names_the_extra(self):
        for name, argv in (
                ('zaqar-delay-audit', ['snapshot.jsonl', '--out', 'r']),
                ('zaqar-delay-schedule', ['--url', 'http://127.0.0.1:1',
                                          'in.csv'])):
            done, _ = cmd.run(name, *argv, env=self.env)
            self.assertEqual(1, done.returncode)
            self.assertEqual(
                ["%s: needs the pipeline extra (pip install 'zaqar-delay"
                 "[pipeline]'): No module named 'pyspark'" % name],
                done.stderr.splitlines())
