import json

import testtools

from zaqar_delay.history import events
from zaqar_delay.history import export


class HistoryRecordTest(testtools.TestCase):

    def test_posted_with_its_numbers_and_body(self):
        event = events.Event(100, 'm1', 'posted', {
            'ttl': '300', 'delay': '5', 'due': '105', 'dedup': '',
            'body': {'order': 42}})
        rec = export.record('p.1', 'q.a', event, with_body=True)
        self.assertEqual(export.FIELDS, tuple(rec))
        self.assertEqual(('p.1', 'q.a', 'm1', 'posted', 100.0, 300, 5.0,
                          105.0, None), (
            rec['project'], rec['queue'], rec['message_id'], rec['kind'],
            rec['at'], rec['ttl'], rec['delay'], rec['due'], rec['dedup']))
        self.assertEqual({'order': 42}, json.loads(rec['body']))
        self.assertIsNone(export.record('p', 'q', event)['body'])

    def test_claims_deletes_and_pushes(self):
        claimed = export.record('p', 'q', events.Event(
            110, 'm1', 'claimed', {'claim': 'c1', 'count': '2'}))
        self.assertEqual(('c1', 2, None, None), (
            claimed['claim_id'], claimed['claim_count'], claimed['ttl'],
            claimed['body']))
        deleted = export.record('p', 'q', events.Event(
            120, 'm1', 'deleted', {'claim': '', 'popped': '1'}))
        self.assertEqual((None, True), (deleted['claim_id'],
                                        deleted['popped']))
        # Stores that keep numbers as numbers give the same record.
        pushed = export.record('p', 'q', events.Event(
            130, 'm1', 'pushed', {'subscriber': 'http://h/x', 'status': 204}))
        self.assertEqual(('http://h/x', 204), (pushed['subscriber'],
                                               pushed['status']))
        released = export.record('p', 'q', events.Event(
            111, 'm1', 'released', {'claim': 'c1', 'wait': '1.5'}))
        self.assertEqual(1.5, released['wait'])

    def test_a_bad_number_is_a_value_error(self):
        self.assertRaises(ValueError, export.record, 'p', 'q', events.Event(
            1, 'm', 'claimed', {'count': 'many'}))
