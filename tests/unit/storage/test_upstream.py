"""Upstream Zaqar's private names that the delay drivers use exist.

Each backend's ``upstream`` module resolves them when imported; with a
Zaqar that lacks one, importing it fails with an UpstreamChanged that
names it, and so do these tests.
"""

import importlib

import testtools

from zaqar_delay.storage import upstream
from zaqar_delay import version

BACKENDS = ('redis', 'mongodb', 'swift')


class UpstreamNamesTest(testtools.TestCase):

    def test_every_backend_finds_the_private_names_it_uses(self):
        for backend in BACKENDS:
            try:
                module = importlib.import_module(
                    'zaqar_delay.storage.%s.upstream' % backend)
            except upstream.UpstreamChanged as exc:
                self.fail('%s: %s' % (backend, exc))
            self.assertTrue(module.INHERITED, backend)
            self.assertTrue(all(callable(method)
                                for method in module.INHERITED), backend)

    def test_a_missing_name_is_named_with_the_versions(self):
        error = self.assertRaises(
            upstream.UpstreamChanged, upstream.private,
            'zaqar.storage.redis.models', '_no_such_name')
        self.assertIn('zaqar.storage.redis.models._no_such_name', str(error))
        self.assertIn(version.installed('zaqar'), str(error))
        self.assertIn(version.CHECKED_ZAQAR, str(error))

    def test_a_missing_method_or_module_is_named_too(self):
        for module, name in (('zaqar.storage.swift.messages',
                              'MessageController._no_such_method'),
                             ('zaqar.storage.no_such_backend', '_x')):
            error = self.assertRaises(upstream.UpstreamChanged,
                                      upstream.private, module, name)
            self.assertIn('%s.%s' % (module, name), str(error))
