"""The queue stage refuses delay metadata the drivers would not honour,
with errors Zaqar's wsgi transport answers with a 400."""

import types

import testtools
from oslo_config import cfg
from zaqar.storage import errors as storage_errors
from zaqar.transport import validation

from zaqar_delay import opts
from zaqar_delay.storage import checks


class QueueMetadataCheckTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        conf = cfg.ConfigOpts()
        opts.register_opts(conf)
        self.stage = checks.QueueMetadataCheck(
            types.SimpleNamespace(max_delay=900, conf=conf), None)

    def test_good_or_no_metadata_passes(self):
        self.assertIsNone(self.stage.create('q', None, 'p'))
        self.assertIsNone(self.stage.create(
            'q', {'_retry_backoff': {'initial': 5}}, 'p'))
        self.assertIsNone(self.stage.set_metadata('q', {'other': 1}, 'p'))

    def test_create_raises_what_a_queue_put_maps_to_400(self):
        # Zaqar's PUT turns FlavorDoesNotExist into a 400 with its text,
        # every other storage error into a 503.
        error = self.assertRaises(
            storage_errors.FlavorDoesNotExist, self.stage.create, 'q',
            {'_retry_backoff': {'initial': -1}}, 'p')
        self.assertIn('_retry_backoff.initial must be', str(error))

    def test_set_metadata_raises_what_a_patch_maps_to_400(self):
        error = self.assertRaises(
            validation.ValidationFailed, self.stage.set_metadata, 'q',
            {'_retry_backoff': 'soon'}, 'p')
        self.assertIn('must be an object', str(error))

    def test_dedup_metadata_is_checked_too(self):
        for meta, reason in (({'_dedup_key': ''}, 'non-empty string'),
                             ({'_dedup_key': 5}, 'non-empty string'),
                             ({'_dedup_key': 'k', '_dedup_window': 0},
                              'above 0'),
                             ({'_dedup_key': 'k', '_dedup_window': 1.5},
                              'whole number'),
                             ({'_dedup_key': 'k',
                               '_dedup_window': 1209601}, 'maximum'),
                             ({'_dedup_window': 60}, 'needs _dedup_key')):
            error = self.assertRaises(validation.ValidationFailed,
                                      self.stage.set_metadata, 'q', meta,
                                      'p')
            self.assertIn(reason, str(error))
        self.assertIsNone(self.stage.set_metadata(
            'q', {'_dedup_key': 'job', '_dedup_window': 3600}, 'p'))
