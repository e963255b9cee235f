"""Upstream Zaqar's private names that the delay drivers use exist.

Each backend's ``upstream`` module resolves them when imported; with a
Zaqar that lacks one, importing it fails with an UpstreamChanged that
names it, and so do these tests.
"""

import glob
import importlib
import os
import re

import testtools

from zaqar_delay import errors
from zaqar_delay.storage import upstream
from zaqar_delay import version

BACKENDS = ('redis', 'mongodb', 'swift')


class UpstreamNamesTest(testtools.TestCase):

    def test_every_backend_finds_the_private_names_it_uses(self):
        for backend in BACKENDS:
            try:
                module = importlib.import_module(
                    'zaqar_delay.storage.%s.upstream' % backend)
            except errors.UpstreamChanged as exc:
                self.fail('%s: %s' % (backend, exc))
            self.assertTrue(module.INHERITED, backend)
            self.assertTrue(all(callable(method)
                                for method in module.INHERITED), backend)

    def test_the_push_fence_finds_zaqars_notification_internals(self):
        try:
            module = importlib.import_module('zaqar_delay.push.upstream')
        except errors.UpstreamChanged as exc:
            self.fail('push: %s' % exc)
        self.assertTrue(all(module.BORROWED))
        self.assertEqual('Notification', module.NOTIFICATION)
        self.assertIn(module.LINEAR, module.BACKOFF)
        for scheme in ('http', 'https', 'mailto', 'trust+http'):
            self.assertTrue(callable(module.task(scheme).execute), scheme)

    def test_only_the_fences_name_zaqars_notification_internals(self):
        # The dispatcher and stage take them from push.upstream only.
        root = os.path.dirname(os.path.dirname(upstream.__file__))
        for path in glob.glob(os.path.join(root, 'push', '*.py')):
            if path.endswith('upstream.py'):
                continue
            with open(path) as source:
                text = source.read()
            for name in ('zaqar.notification.tasks', 'RETRY_BACKOFF',
                         'zaqar.common.consts', '._pool_catalog'):
                self.assertNotIn(name, text, path)

    def test_storage_never_imports_push_or_cmd(self):
        imports = re.compile(r'^\s*(from zaqar_delay(\.(push|cmd)\b| import '
                             r'(push|cmd)\b)|import zaqar_delay\.(push|cmd))',
                             re.MULTILINE)
        root = os.path.dirname(upstream.__file__)
        found = []
        for path in glob.glob(os.path.join(root, '**', '*.py'),
                              recursive=True):
            with open(path) as source:
                found += [(path, m.group(0)) for m in
                          imports.finditer(source.read())]
        self.assertEqual([], found)

    def test_a_missing_name_is_named_with_the_versions(self):
        error = self.assertRaises(
            errors.UpstreamChanged, upstream.private,
            'zaqar.storage.redis.models', '_no_such_name')
        self.assertIn('zaqar.storage.redis.models._no_such_name', str(error))
        self.assertIn(version.installed('zaqar'), str(error))
        self.assertIn(version.CHECKED_ZAQAR, str(error))

    def test_a_missing_method_or_module_is_named_too(self):
        for module, name in (('zaqar.storage.swift.messages',
                              'MessageController._no_such_method'),
                             ('zaqar.storage.no_such_backend', '_x')):
            error = self.assertRaises(errors.UpstreamChanged,
                                      upstream.private, module, name)
            self.assertIn('%s.%s' % (module, name), str(error))
