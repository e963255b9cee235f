"""Push attempts in a message's history, on ``redis.delay`` and
``mongodb.delay``: a real zaqar-server with zaqar-delay's notifier stage
and in-server dispatcher, a webhook receiver on loopback, read back with
``zaqar-delay-manage history``."""

import io
import json
import time

import testtools

from tests.common import manage as cli_manage
from tests.common import push_delivery as delivery
from zaqar_delay.cmd import manage


class PushHistory(delivery.PushTest):
    metadata = {'_history_ttl': 3600}

    def history(self, name):
        out = io.StringIO()
        code = manage.main(['--config-file', self.stack.conf, 'history',
                            name, '--json', '--project', self.project],
                           out=out)
        self.assertEqual(0, code, out.getvalue())
        return [json.loads(line) for line in out.getvalue().splitlines()]

    def pushed(self, name, count, timeout=60):
        """The queue's history once it has ``count`` pushed events (the
        dispatcher tells the store in its next pass)."""
        deadline = time.time() + timeout
        while True:
            events = self.history(name)
            if [e['kind'] for e in events].count('pushed') >= count:
                return events
            self.assertLess(time.time(), deadline, events)
            time.sleep(0.2)

    def test_each_attempt_with_its_subscriber_and_status(self):
        self.subscribe()
        self.receiver.faults = [503]        # refused once, then retried
        due, = self.post([1]).values()
        self.assertEqual(1, self.receiver.wait_for(1, 60))
        events = self.pushed(self.name, 2)
        self.assertEqual(['posted', 'pushed', 'pushed'],
                         [e['kind'] for e in events])
        refused, delivered = events[1:]
        self.assertEqual([(self.receiver.url, '503'),
                          (self.receiver.url, '204')],
                         [(e['subscriber'], e['status'])
                          for e in (refused, delivered)])
        self.assertGreaterEqual(refused['at'], int(due))   # whole seconds
        self.assertLessEqual(refused['at'], delivered['at'])
        self.assertEqual(['pushed'], [e['kind'] for e in self.history(
            self.name) if e['kind'] != 'posted' and e['status'] == '204'])

    def test_a_queue_without_history_records_no_attempt(self):
        plain = self.cli.queue(self.name + '-plain', force_create=True)
        self.cli.subscription(plain.name, subscriber=self.receiver.url,
                              ttl=3600, options={})
        plain.post([{'body': 'plain', 'ttl': 600, 'delay': 0}])
        self.assertEqual(1, self.receiver.wait_for(1, 60))
        self.subscribe()                    # and one that keeps history
        self.post([0])
        self.assertEqual(2, self.receiver.wait_for(2, 60))
        self.assertEqual(1, [e['kind'] for e in self.pushed(
            self.name, 1)].count('pushed'))
        self.assertTrue(cli_manage.keeps_no_history(
            self.stack.conf, plain.name, self.project))


class RedisPushHistoryTest(PushHistory, testtools.TestCase):
    pass


class MongoPushHistoryTest(PushHistory, testtools.TestCase):
    store = 'mongodb.delay'
