import os
import re

import testtools

from zaqar_delay.storage.redis import scripting


class ScriptsTest(testtools.TestCase):

    def test_every_command_has_a_header_and_expands(self):
        for name in scripting.Scripts.NAMES:
            text = scripting.source(name)
            header = text.split('--]]', 1)[0]
            for part in ('KEYS[', 'ARGV[', 'Returns'):
                self.assertIn(part, header, name)
            self.assertNotIn('@include', text, name)

    def test_includes_are_expanded(self):
        self.assertIn('local function promote', scripting.source('claim'))

    def test_scripts_do_not_build_key_names(self):
        folder = os.path.dirname(scripting.source.__code__.co_filename)
        call = re.compile(r"redis\.call\('\w+', ([^,)]+)")
        for name in os.listdir(os.path.join(folder, 'scripts')):
            with open(os.path.join(folder, 'scripts', name)) as f:
                for key in call.findall(f.read()):
                    self.assertNotIn('..', key, name)
