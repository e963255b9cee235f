"""The queue stage refuses delay metadata the drivers would not honour,
with errors Zaqar's transports answer with a 400."""

import types

import testtools
from oslo_config import cfg
from zaqar.conf import drivers
from zaqar.storage import errors as storage_errors
from zaqar.transport import validation

from zaqar_delay import errors
from zaqar_delay import opts
from zaqar_delay.storage import checks


class QueueMetadataCheckTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.stage_conf = conf = cfg.ConfigOpts()
        opts.register_opts(conf)
        self.stage = checks.QueueMetadataCheck(
            types.SimpleNamespace(max_delay=900, conf=conf), None)

    def test_good_or_no_metadata_passes(self):
        self.assertIsNone(self.stage.create('q', None, 'p'))
        self.assertIsNone(self.stage.create(
            'q', {'_retry_backoff': {'initial': 5}}, 'p'))
        self.assertIsNone(self.stage.set_metadata('q', {'other': 1}, 'p'))

    def test_a_refused_wsgi_create_is_a_missing_flavor_error(self):
        # Zaqar's wsgi queue PUT answers FlavorDoesNotExist with a 400
        # and its text, every other storage error with a 503.
        error = self.assertRaises(
            storage_errors.FlavorDoesNotExist, self.stage.create, 'q.1',
            {'_retry_backoff': {'initial': -1}}, 'p')
        self.assertNotIsInstance(error, errors.DelayError)
        self.assertIsInstance(error.__cause__, errors.QueueMetadataRefused)
        self.assertTrue(str(error).startswith(
            'Queue "q.1" not created: _retry_backoff.initial must be'),
            str(error))

    def test_a_refused_websocket_create_is_a_validation_error(self):
        self.stage_conf.register_opts(drivers.ALL_OPTS, drivers.GROUP_NAME)
        self.stage_conf.set_override('transport', 'websocket',
                                     drivers.GROUP_NAME)
        error = self.assertRaises(
            validation.ValidationFailed, self.stage.create, 'q.1',
            {'_retry_backoff': {'initial': -1}}, 'p')
        self.assertNotIsInstance(error, errors.DelayError)
        self.assertNotIsInstance(error, storage_errors.ExceptionBase)
        self.assertTrue(str(error).startswith(
            'Queue "q.1" not created: _retry_backoff.initial must be'),
            str(error))

    def test_set_metadata_raises_what_a_patch_maps_to_400(self):
        error = self.assertRaises(
            validation.ValidationFailed, self.stage.set_metadata, 'q',
            {'_retry_backoff': 'soon'}, 'p')
        self.assertIn('must be an object', str(error))

    def test_default_message_delay_is_checked(self):
        # Zaqar's transport lets true and false through (a bool is an
        # int in Python); every post without a delay then failed.
        for value in (True, False, 'ten', -1, 901):
            error = self.assertRaises(
                errors.QueueMetadataRefused, self.stage.refuse, 'q.1',
                {'_default_message_delay': value}, 'p')
            self.assertIn('_default_message_delay must be a whole number '
                          'of seconds from 0 to 900', str(error))
            self.assertRaises(validation.ValidationFailed,
                              self.stage.set_metadata, 'q.1',
                              {'_default_message_delay': value}, 'p')
        self.assertIsNone(self.stage.set_metadata(
            'q', {'_default_message_delay': 900}, 'p'))

    def test_dead_letter_metadata_is_checked(self):
        for meta in ({'_max_claim_count': True},
                     {'_dead_letter_queue': 5}):
            self.assertRaises(errors.QueueMetadataRefused, self.stage.refuse,
                              'q.1', meta, 'p')
        self.assertIsNone(self.stage.create('q.1', {
            '_max_claim_count': 3, '_dead_letter_queue': 'q.dead'}, 'p'))

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

    def test_schedules_are_checked_and_put_in_the_index(self):
        touched = []
        store = types.SimpleNamespace(touch=lambda *args: touched.append(
            args))
        stage = checks.QueueMetadataCheck(types.SimpleNamespace(
            max_delay=900, conf=self.stage_conf, schedule_class=object,
            schedule_store=store, clock=lambda: 100.5), None)
        error = self.assertRaises(
            errors.QueueMetadataRefused, stage.refuse, 'q.1',
            {'_schedules': [{'name': 'n', 'every': 0, 'body': 1}]}, 'p')
        self.assertIn("_schedules: schedule 'n': every must be", str(error))
        self.assertRaises(validation.ValidationFailed, stage.set_metadata,
                          'q.1', {'_schedules': 'x'}, 'p')
        self.assertEqual([], touched)
        good = {'_schedules': [{'name': 'n', 'every': 5, 'body': 1}]}
        stage.create('q.1', good, 'p')
        stage.set_metadata('q.2', good, None)
        stage.set_metadata('q.3', {'other': 1}, None)
        # Looked at a second later; set at 100.5, so from tick 101.
        self.assertEqual([('q.1', 'p', 101, 101), ('q.2', None, 101, 101)],
                         touched)

    def test_history_ttl_is_checked_against_its_maximum(self):
        self.stage_conf.set_override('max_history_ttl', 3600, 'delay')
        stage = checks.QueueMetadataCheck(
            types.SimpleNamespace(max_delay=900, conf=self.stage_conf), None)
        for value in (0, -5, 1.5, '60', True, 3601):
            error = self.assertRaises(validation.ValidationFailed,
                                      stage.set_metadata, 'q',
                                      {'_history_ttl': value}, 'p')
            self.assertIn('_history_ttl must be a whole number', str(error))
            self.assertIn('3600', str(error))
        self.assertRaises(errors.QueueMetadataRefused, stage.refuse, 'q.1',
                          {'_history_ttl': 0}, 'p')
        self.assertIsNone(stage.set_metadata('q', {'_history_ttl': 3600},
                                             'p'))
