"""What the admin guide says of mongodb.delay's indexes is true."""

import os
import re

import testtools

from zaqar_delay.storage.mongodb import queries

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))))
WORDS = {2: 'two', 3: 'three', 4: 'four'}


class AdminGuideTest(testtools.TestCase):

    def test_migrate_names_every_index_and_counts_them(self):
        with open(os.path.join(TOP, 'doc', 'source', 'admin.rst')) as f:
            text = f.read()
        part = text[text.index('mongodb migrate --to mongodb.delay'):]
        part = part[:part.index('\nSwift:')]
        for name in queries.INDEXES:
            self.assertIn('``%s``' % name, part)
        counted = set(re.findall(r'the (\w+) indexes', part))
        self.assertEqual({WORDS[len(queries.INDEXES)]}, counted)
