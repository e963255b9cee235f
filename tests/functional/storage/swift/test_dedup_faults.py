"""``swift.delay`` dedup posts cut short after taking their value: the
message that answers the retries is findable, and claimed once."""

import datetime
import time
from unittest import mock

import swiftclient

from oslo_utils import timeutils

from tests.common import behaviour
from tests.fixtures import faults
from tests.fixtures import swift_store
from zaqar_delay import dedup
from zaqar_delay import errors
from zaqar_delay.storage.swift import dedup as swift_dedup
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import locks

PROJECT = behaviour.PROJECT


class SwiftDedupFaultTest(behaviour.Helpers, swift_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.keyed()

    def keyed(self, **extra):
        self.queues.set_metadata(self.queue,
                                 dict({'_dedup_key': 'job'}, **extra),
                                 project=PROJECT)

    def send(self, job, **extra):
        return self.messages.post(
            self.queue, [dict({'ttl': 3600, 'body': {'job': job}}, **extra)],
            behaviour.CLIENT, project=PROJECT)

    def cut_after_the_value(self, kind):
        """The next post's write of a ``kind`` entry fails: the post
        took its dedup value, then wrote no index entry (as a
        zaqar-server killed there), and its client gets an error."""
        return faults.Fault(
            self, idx.Index, 'put',
            swiftclient.ClientException('died', http_status=503),
            only=lambda index, entry_kind, *a, **k: entry_kind == kind)

    def claim_all(self):
        found = []
        while True:
            _, ids = self.claim(limit=20, ttl=600)
            if not ids:
                return found
            found.extend(ids)

    def test_a_value_taken_for_longer_than_a_post_tries_stores_nothing(self):
        # Another post's door on the value, live for longer than a post
        # tries (PATIENCE, one second here): the door is left alone, and
        # the post answers undecided with nothing stored.
        (found,) = dedup.of_messages({'_dedup_key': 'job'},
                                     [{'ttl': 3600, 'body': {'job': 'a'}}])
        container = idx.container(idx.DEDUP, self.queue, PROJECT)
        client = self.messages._client
        self.assertTrue(locks.create(client, container, found.digest,
                                     b'?another', int(time.time()) + 120))
        with mock.patch.object(swift_dedup, 'PATIENCE', 1):
            self.assertRaises(errors.DedupUndecided, self.send, 'a')
        self.assertEqual(0, self.stats_of(self.queue, PROJECT)['total'])
        self.assertEqual('?another',
                         locks.read(client, container, found.digest).holder)

    def test_a_retry_of_a_post_cut_after_its_value_is_claimable_once(self):
        fault = self.cut_after_the_value(idx.READY)
        self.assertRaises(errors.StoreUnavailable, self.send, 'a')
        self.assertEqual(1, fault.calls)
        (mid,) = self.send('a')         # the client's retry
        self.assertEqual([mid], self.send('a'))
        self.assertEqual([mid], self.claim_all())
        timeutils.advance_time_seconds(601)     # that claim ended
        self.assertEqual([mid], self.claim_all())

    def test_a_retry_of_a_delayed_post_cut_short_comes_due_once(self):
        fault = self.cut_after_the_value(idx.DUE)
        self.assertRaises(errors.StoreUnavailable, self.send, 'a',
                          delay=30)
        self.assertEqual(1, fault.calls)
        (mid,) = self.send('a', delay=30)
        self.assertEqual([], self.claim_all())      # not due yet
        self.assertEqual(1, self.stats_of(self.queue, PROJECT)['delayed'])
        timeutils.advance_time_seconds(31)
        self.assertEqual([mid], self.claim_all())

    def test_a_retry_in_the_second_its_answer_is_due_waits_for_its_ms(self):
        self.cut_after_the_value(idx.DUE)
        self.assertRaises(errors.StoreUnavailable, self.send, 'a',
                          delay=1)                  # due at +1.5 s
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=750))
        (mid,) = self.send('a', delay=1)
        self.assertEqual([], self.claim_all())      # not due yet
        timeutils.advance_time_delta(datetime.timedelta(milliseconds=250))
        self.assertEqual([mid], self.claim_all())

    def test_a_retry_answered_by_a_claimed_message_does_not_free_it(self):
        (mid,) = self.send('a')
        claim_id, ids = self.claim(ttl=600)
        self.assertEqual([mid], ids)
        self.assertEqual([mid], self.send('a'))
        self.assertEqual([], self.claim_all())      # the claim holds it
        self.messages.delete(self.queue, mid, project=PROJECT,
                             claim=claim_id)
        timeutils.advance_time_seconds(601)
        self.assertEqual([], self.claim_all())      # acknowledged: gone

    def test_a_retry_answered_by_a_message_in_its_backoff_waits(self):
        self.keyed(_retry_backoff={'initial': 100, 'max': 100})
        (mid,) = self.send('a')
        self.assertEqual([mid], self.claim(ttl=30)[1])
        timeutils.advance_time_seconds(31)      # the claim ended
        self.assertEqual([mid], self.send('a'))
        self.assertEqual([], self.claim_all())  # its backoff is running
        timeutils.advance_time_seconds(100)
        self.assertEqual([mid], self.claim_all())
