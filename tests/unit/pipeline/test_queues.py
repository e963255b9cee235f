"""Looking a queue up (or making it) before posting, and the rule on
delayed rows, with scripted replies."""

import json

import testtools

from zaqar_delay.pipeline import queues
from zaqar_delay import replies


def reply(status, body=None):
    return replies.Reply(status, b'' if body is None else
                         json.dumps(body).encode(), reason='Reason')


class LookUpTest(testtools.TestCase):

    def look_up(self, *answers, queue_delay=1):
        answers, sent = list(answers), []

        def request(method, path, body=None):
            sent.append((method, path, body and json.loads(body)))
            return answers.pop(0)
        found = queues.look_up(request, 'q.1', queue_delay)
        self.assertEqual([], answers)
        return found, sent

    def test_a_missing_queue_is_made_delayed(self):
        found, sent = self.look_up(reply(201), queue_delay=5)
        self.assertEqual(queues.Queue(5, False, None), found)
        self.assertEqual(
            [('PUT', '/v2/queues/q.1', {'_default_message_delay': 5})],
            sent)

    def test_a_queue_there_is_read_once(self):
        # Made before, or meanwhile by anyone: the PUT changes nothing.
        found, sent = self.look_up(reply(204), reply(200, {
            '_default_message_delay': 30, '_dedup_key': 'job',
            '_max_claim_count': None}))
        self.assertEqual(queues.Queue(30, True, None), found)
        self.assertEqual(
            [('PUT', '/v2/queues/q.1', {'_default_message_delay': 1}),
             ('GET', '/v2/queues/q.1', None)], sent)

    def test_no_default_delay_is_a_delay_of_0(self):
        for metadata in ({}, {'_default_message_delay': None},
                         {'_default_message_delay': 0},
                         {'_default_message_delay': True},
                         {'_default_message_delay': '30'}):
            found, _ = self.look_up(reply(204), reply(200, metadata))
            self.assertEqual(queues.Queue(0, False, None), found, metadata)

    def test_failures_refuse_the_queue(self):
        cases = [
            ((reply(400, {'description': 'too long'}),),
             'could not create queue q.1: refused by the server (400): '
             'too long'),
            (('gave up after 6 attempts: no reply: TimeoutError',),
             'could not create queue q.1: gave up after 6 attempts: no '
             'reply: TimeoutError'),
            ((reply(204), reply(403)),
             'could not read queue q.1: refused by the server (403): '
             'Reason'),
            ((reply(204), replies.Reply(200, b'<html>')),
             "could not read queue q.1: not JSON: '<html>'"),
        ]
        for answers, why in cases:
            found, _ = self.look_up(*answers)
            self.assertEqual(queues.Queue(0, False, why), found)


class RefusalTest(testtools.TestCase):

    def test_delayed_rows_need_a_queue_default(self):
        plain = queues.Queue(0, False, None)
        self.assertIsNone(queues.refusal('q', plain, None))
        self.assertIsNone(queues.refusal('q', plain, 0))
        self.assertEqual(
            'queue q has no _default_message_delay, so Zaqar would drop '
            'this message\'s delay (30 s) and deliver it at once: set '
            '_default_message_delay on the queue (1 or more) and run the '
            'job again', queues.refusal('q', plain, 30))
        self.assertIsNone(queues.refusal('q', queues.Queue(1, False, None),
                                         30))

    def test_a_refused_queue_refuses_every_row(self):
        gone = queues.Queue(0, False, 'could not read queue q: ...')
        for delay in (None, 0, 30):
            self.assertEqual('could not read queue q: ...',
                             queues.refusal('q', gone, delay))
