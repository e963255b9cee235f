"""The queue stage refuses delay metadata the drivers would not honour,
with errors Zaqar's wsgi transport answers with a 400."""

import types

import testtools
from zaqar.storage import errors as storage_errors
from zaqar.transport import validation

from zaqar_delay.storage import checks


class QueueMetadataCheckTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.stage = checks.QueueMetadataCheck(
            types.SimpleNamespace(max_delay=900), None)

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
