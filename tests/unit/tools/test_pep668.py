"""tools/pep668.py: which interpreter counts as a newcomer's Python."""

import os
import sys

import fixtures
import testtools

from tests.common import tools

pep668 = tools.load('pep668')


class Pep668Test(testtools.TestCase):

    def test_a_virtualenv_is_not_externally_managed(self):
        # pip ignores the marker inside a virtualenv, as tox's is.
        self.assertNotEqual(sys.prefix, sys.base_prefix)
        self.assertFalse(pep668.externally_managed(sys.executable))
        self.assertIsNone(pep668.find([sys.executable]))

    def test_a_missing_interpreter_is_none(self):
        self.assertFalse(pep668.externally_managed('/nonexistent/python3'))
        self.assertIsNone(pep668.find(['no-such-python-here']))

    def test_links_the_python_found_or_fails(self):
        bindir = os.path.join(self.useFixture(fixtures.TempDir()).path, 'b')
        found = pep668.find()
        code = pep668.main([bindir])
        if found is None:
            self.assertEqual(1, code)
        else:
            self.assertEqual(0, code)
            link = os.path.join(bindir, 'python3')
            self.assertEqual(found, os.path.realpath(link))
            self.assertTrue(pep668.externally_managed(link))

    def test_usage(self):
        self.assertEqual(2, pep668.main([]))
