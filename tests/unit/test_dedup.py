"""Deduplication keys: which messages are deduplicated, by what."""

import testtools

from zaqar_delay import dedup
from zaqar_delay import errors


class DedupTest(testtools.TestCase):

    def test_messages_with_the_field_get_a_digest_and_a_window(self):
        meta = {'_dedup_key': 'job', '_dedup_window': 600}
        found = dedup.of_messages(meta, [
            {'ttl': 60, 'body': {'job': 'a'}},
            {'ttl': 60, 'body': {'job': 'a', 'other': 1}},
            {'ttl': 60, 'body': {'other': 1}},
            {'ttl': 60, 'body': 'text'}])
        self.assertEqual(found[0], found[1])
        self.assertEqual(600, found[0].window)
        self.assertEqual([None, None], found[2:])

    def test_values_compare_as_json_and_objects_by_content(self):
        (one, text, obj, same) = dedup.of_messages({'_dedup_key': 'k'}, [
            {'ttl': 9, 'body': {'k': 1}}, {'ttl': 9, 'body': {'k': '1'}},
            {'ttl': 9, 'body': {'k': {'a': 1, 'b': 2}}},
            {'ttl': 9, 'body': {'k': {'b': 2, 'a': 1}}}])
        self.assertNotEqual(one.digest, text.digest)
        self.assertEqual(obj.digest, same.digest)
        self.assertEqual(9, one.window)     # the message's ttl

    def test_without_a_usable_key_nothing_is_deduplicated(self):
        messages = [{'ttl': 60, 'body': {'job': 'a'}}]
        for meta in ({}, None, {'_dedup_key': ''}, {'_dedup_key': 5}):
            self.assertEqual([None], dedup.of_messages(meta, messages))
        (found,) = dedup.of_messages(
            {'_dedup_key': 'job', '_dedup_window': 'soon'}, messages)
        self.assertEqual(60, found.window)  # a bad stored window: the ttl

    def test_check_refuses_bad_metadata(self):
        self.assertIsNone(dedup.check({'_dedup_key': 'job'}, 3600))
        self.assertRaises(errors.Refused, dedup.check,
                          {'_dedup_key': 'job', '_dedup_window': True}, 3600)

    def test_an_identity_deduplicates_on_any_queue_for_the_ttl(self):
        for meta in ({}, {'_dedup_key': 'job'}):
            first, again, other, plain = dedup.of_messages(meta, [
                {'ttl': 70, 'body': {'job': 'a'}, dedup.IDENTITY: 't 1'},
                {'ttl': 70, 'body': {'job': 'b'}, dedup.IDENTITY: 't 1'},
                {'ttl': 70, 'body': {}, dedup.IDENTITY: 't 2'},
                {'ttl': 70, 'body': {}}])
            self.assertEqual(first, again)
            self.assertEqual(70, first.window)
            self.assertNotEqual(first.digest, other.digest)
            self.assertIsNone(plain)

    def test_no_body_value_shares_an_identity_digest(self):
        (identity, value) = dedup.of_messages({'_dedup_key': 'k'}, [
            {'ttl': 9, 'body': {}, dedup.IDENTITY: '"x"'},
            {'ttl': 9, 'body': {'k': '"x"'}}])
        self.assertNotEqual(identity.digest, value.digest)
