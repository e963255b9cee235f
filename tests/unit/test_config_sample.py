import os
import tempfile

from oslo_config import cfg
from oslo_config import generator
import testtools

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


class ConfigSampleTest(testtools.TestCase):

    def test_shipped_sample_is_up_to_date(self):
        out = os.path.join(tempfile.mkdtemp(), 'sample.conf')
        conf = cfg.ConfigOpts()
        generator.register_cli_opts(conf)
        conf(['--config-file', os.path.join(
            TOP, 'etc', 'zaqar-delay-config-generator.conf'),
            '--output-file', out])
        generator.generate(conf)
        with open(out) as fresh, open(os.path.join(
                TOP, 'etc', 'zaqar-delay.conf.sample')) as shipped:
            self.assertEqual(fresh.read(), shipped.read(),
                             'run: tox -e genconfig')
