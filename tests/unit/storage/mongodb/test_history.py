"""The events a ``mongodb.delay`` document's history holds, read back."""

import datetime

from bson import objectid
import testtools

from zaqar_delay.history import events
from zaqar_delay.storage.mongodb import history
from zaqar_delay.storage.mongodb import updates


class EventsOfDocumentTest(testtools.TestCase):

    def test_fields_read_as_the_redis_stream_gives_them(self):
        oid, claim = objectid.ObjectId(), objectid.ObjectId()
        doc = {'_id': oid, 'b': {'order': 42}, 'hv': [
            {'k': 'posted', 't': 10, 'ttl': 300, 'delay': 1, 'due': 11,
             'dedup': ''},
            {'k': 'claimed', 't': 12, 'claim': claim, 'count': 1},
            {'k': 'deleted', 't': 13, 'claim': '', 'popped': 0}]}
        found = list(history._events(doc))
        self.assertEqual([(10, 'posted'), (12, 'claimed'), (13, 'deleted')],
                         [(e.at, e.kind) for e in found])
        self.assertEqual({str(oid)}, {e.message_id for e in found})
        self.assertEqual({'ttl': '300', 'delay': '1', 'due': '11',
                          'dedup': '', 'body': {'order': 42}},
                         found[0].fields)
        self.assertEqual({'claim': str(claim), 'count': '1'},
                         found[1].fields)
        self.assertEqual({'claim': '', 'popped': '0'}, found[2].fields)

    def test_a_live_document_past_its_expiry_reads_expired(self):
        doc = {'_id': objectid.ObjectId(), 's': 0, 'x': 50, 'c': {'c': 2},
               'hv': [{'k': 'posted', 't': 10}]}
        self.assertEqual([(10, 'posted', {'body': None})],
                         [(e.at, e.kind, e.fields)
                          for e in history._events(doc, 49)])
        self.assertEqual([(50, 'expired', {'count': '2'})],
                         [(e.at, e.kind, e.fields)
                          for e in history._events(doc, 50)][1:])
        doc.update(s=4, c={'c': 0})         # marked: its own event
        self.assertEqual(1, len(list(history._events(doc, 60))))
        doc.update(s=1)                     # waiting, never claimed
        self.assertEqual({'count': ''},
                         list(history._events(doc, 60))[-1].fields)

    def test_a_document_without_history_has_no_events(self):
        self.assertEqual([], list(history._events({'_id': 1, 'b': 'x'})))


class RecordTest(testtools.TestCase):

    def test_appends_only_where_history_is_kept(self):
        stage = updates.record(events.CLAIMED, 5, claim='$c.id')
        kept, appended, otherwise = stage['$set']['hv']['$cond']
        self.assertEqual({'$gt': [{'$ifNull': ['$h', 0]}, 0]}, kept)
        self.assertEqual('$$REMOVE', otherwise)
        self.assertEqual([{'$ifNull': ['$hv', []]},
                          [{'k': 'claimed', 't': 5, 'claim': '$c.id'}]],
                         appended['$concatArrays'])

    def test_processed_expires_history_ttl_after(self):
        stages = updates.processed(100, events.DELETED, claim='', popped=0)
        done = stages[1]['$set']
        self.assertEqual((4, 100, None), (done['s'], done['a'], done['c.id']))
        start, seconds = done['e']['$add']
        self.assertEqual(datetime.datetime(1970, 1, 1, 0, 1, 40), start)
        self.assertEqual({'$multiply': ['$h', 1000]}, seconds)
        self.assertEqual({'$unset': ['pa', 'pd']}, stages[2])
