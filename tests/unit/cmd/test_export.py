import io

import testtools

from zaqar_delay.cmd import manage


class ExportArgumentsTest(testtools.TestCase):

    def test_parquet_needs_an_output_file(self):
        for extra in ([], ['--history']):
            error = self.assertRaises(
                SystemExit, manage.main,
                ['--config-file', 'z.conf', 'export', '--project', 'p',
                 '--format', 'parquet'] + extra, out=io.StringIO())
            self.assertEqual(2, error.code)

    def test_history_times_parse(self):
        error = self.assertRaises(
            SystemExit, manage.main,
            ['--config-file', 'z.conf', 'export', '--project', 'p',
             '--history', '--since', 'yesterday'], out=io.StringIO())
        self.assertEqual(2, error.code)
