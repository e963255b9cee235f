"""``swift.delay`` history events written by the driver, with Zaqar's
clock frozen: claim expiries, deletes without a claim, and what a
failed request leaves (doc/source/history.rst, "On swift.delay")."""

from unittest import mock

from oslo_utils import timeutils
import swiftclient
from zaqar.storage import errors

from tests.common import behaviour
from tests.fixtures import faults
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import history
from zaqar_delay.storage.swift import objects

PROJECT = behaviour.PROJECT


class SwiftHistoryEventsTest(behaviour.Helpers, swift_store.DelayTestBase):

    def setUp(self):
        super().setUp()
        self.queues.set_metadata(self.queue, {'_history_ttl': 3600},
                                 project=PROJECT)

    def events(self):
        return [(event.kind, event.at, event.fields) for event in
                history.read(self.driver.connection, self.queue, PROJECT)]

    def kinds(self):
        return [kind for kind, _, _ in self.events()]

    def test_an_ended_claim_is_recorded_at_its_end(self):
        (mid,) = self.post(0)
        claim_id, _ = self.claim(ttl=60)
        ends = timeutils.utcnow_ts() + 60
        timeutils.advance_time_seconds(61)
        second, taken = self.claim()
        self.assertEqual([mid], taken)
        found = self.events()
        self.assertEqual(['posted', 'claimed', 'claim_expired', 'claimed'],
                         [kind for kind, _, _ in found])
        _, at, fields = found[2]
        self.assertEqual((ends, claim_id, '0'),
                         (at, fields['claim'], fields['wait']))
        self.assertEqual((second, '2'), (found[3][2]['claim'],
                                         found[3][2]['count']))

    def test_a_delete_without_a_claim(self):
        (mid,) = self.post(0)
        self.messages.delete(self.queue, mid, PROJECT)
        kind, _, fields = self.events()[-1]
        self.assertEqual(('deleted', '', '0'),
                         (kind, fields['claim'], fields['popped']))

    def test_a_failed_delete_records_nothing(self):
        (mid,) = self.post(0)
        claim_id, _ = self.claim()
        faults.Fault(self, self.driver.connection, 'delete_object',
                     swiftclient.ClientException('lost', http_status=503),
                     only=lambda container, *a, **k:
                     container.startswith('zaqar_message:'))
        self.assertRaises(errors.ConnectionError, self.messages.delete,
                          self.queue, mid, PROJECT, claim=claim_id)
        self.assertEqual(['posted', 'claimed'], self.kinds())

    def test_a_lost_event_reads_as_expired(self):
        (mid,) = self.post(0)
        claim_id, _ = self.claim()
        faults.Fault(self, objects, 'put',
                     swiftclient.ClientException('lost', http_status=503),
                     only=lambda client, container, *a, **k:
                     container.startswith('zaqar_delay_history:'))
        self.assertRaises(errors.ConnectionError, self.messages.delete,
                          self.queue, mid, PROJECT, claim=claim_id)
        # The message is gone, its deleted event lost: the one event a
        # crash can add, documented.
        self.assertEqual(['posted', 'claimed', 'expired'], self.kinds())

    def test_racing_deletes_record_one_deleted_event(self):
        # Two deletes of one message with its claim, both past the lock
        # check with the message read: the second runs whole just before
        # the first's DELETE of the message. In Swift both DELETEs can
        # be answered 204 (replicas), here the first gets 404: what the
        # events are must not depend on it.
        (mid,) = self.post(0)
        claim_id, _ = self.claim()
        delete = self.messages._delete
        raced = []

        def first(*args, **kwargs):
            if not raced:
                raced.append(mid)
                self.messages.delete(self.queue, mid, PROJECT,
                                     claim=claim_id)
            delete(*args, **kwargs)

        with mock.patch.object(self.messages, '_delete', first):
            self.messages.delete(self.queue, mid, PROJECT, claim=claim_id)
        self.assertEqual([mid], raced)
        self.assertRaises(errors.MessageDoesNotExist, self.messages.get,
                          self.queue, mid, PROJECT)
        self.assertEqual([('posted', None), ('claimed', claim_id),
                          ('deleted', claim_id)],
                         [(kind, fields.get('claim'))
                          for kind, _, fields in self.events()])
