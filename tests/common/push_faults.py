"""Pushes when subscribers fail, written once for every store.

A real zaqar-server (``push_delivery.PushTest``), webhook receivers on
loopback that cut, refuse, hang or are not there, a dotted queue name
and an odd project id: each subscriber is delivered on its own.
"""

import json
import os
import subprocess
import sys
import time
import uuid

from oslo_config import cfg
from oslo_log import log as logging
import requests

from tests.common import push_delivery
from tests.fixtures import receiver
from zaqar_delay.cmd import dispatcher as dispatcher_cmd
from zaqar_delay.cmd import noise
from zaqar_delay import opts

QUEUE_DELAY = push_delivery.QUEUE_DELAY


def threads(pid):
    """How many threads process ``pid`` has now."""
    with open('/proc/%d/status' % pid) as status:
        for line in status:
            if line.startswith('Threads:'):
                return int(line.split()[1])


class RawQueue:
    """A queue through Zaqar's v2 HTTP API itself: python-zaqarclient
    refuses queue names with a dot, which Zaqar accepts."""

    def __init__(self, url, name, project, metadata):
        self.base = '%s/v2/queues/%s' % (url, name)
        self.headers = {'Client-ID': str(uuid.uuid4()),
                        'X-Project-ID': project}
        self._call('put', '', metadata, expect=(201, 204))

    def _call(self, method, path, body=None, expect=(200, 201, 204)):
        reply = getattr(requests, method)(self.base + path, json=body,
                                          headers=self.headers, timeout=30)
        assert reply.status_code in expect, (reply.status_code, reply.text)
        return reply.json() if reply.content else None

    def subscribe(self, url):
        self._call('post', '/subscriptions', {'subscriber': url,
                                              'ttl': 3600, 'options': {}})

    def post(self, messages):
        return self._call('post', '/messages', {'messages': messages})

    def ids(self):
        """Every message's id, delayed ones too."""
        return {m['id'] for m in self._call(
            'get', '/messages?echo=true&include_delayed=true&limit=20'
        )['messages']}


class FaultsBase(push_delivery.PushTest):
    """Each subscriber on its own (``SubscriberFaults``): one's faults
    never cost another a push, nor give it one twice. A dotted queue
    name, an odd project id, a short lease, one-second timeouts and a
    short retry policy."""

    lease = 6
    project = 'tenant.a/b:c'
    queue_prefix = 'orders.eu-'
    push_options = {'connect_timeout': 1, 'read_timeout': 1,
                    'max_in_flight': 8, 'max_in_flight_per_subscriber': 2}
    # Waits 0, 1, 1, 6 s (Zaqar wants maximum - minimum >= 10): the 6 s
    # retry would end after the lease and is not made.
    metadata = {'_retry_policy': {
        'retries_with_no_delay': 1, 'minimum_delay_retries': 1,
        'minimum_delay': 1, 'maximum_delay': 11,
        'maximum_delay_retries': 0}}
    DEAD = 'http://127.0.0.1:9/nobody-listens'

    def make_queue(self):
        return RawQueue(self.stack.url, self.name, self.project,
                        dict(self.metadata,
                             _default_message_delay=QUEUE_DELAY))

    def subscribe(self, url=None):
        self.queue.subscribe(url or self.receiver.url)

    def settled(self, due, seconds):
        """Wait until every message of ``due`` arrived, then ``seconds``
        more; {body: arrival count}."""
        self.receiver.wait_for(len(due), 60)
        time.sleep(seconds)
        return {body: len(times) for body, times in self.arrivals().items()}


class SubscriberFaults(FaultsBase):

    def test_due_and_delayed_messages_are_pushed_alike_with_their_id(self):
        self.subscribe()
        due = self.post([0, 1])
        self.assertEqual({body: 1 for body in due}, self.settled(due, 1))
        bodies = self.receiver.bodies()
        self.assertEqual([{'id', 'body', 'ttl', 'queue_name',
                           'Message_Type'}] * 2,
                         [set(body) for body in bodies])
        self.assertEqual({self.name}, {b['queue_name'] for b in bodies})
        self.assertEqual(self.queue.ids(), {b['id'] for b in bodies})

    def test_a_cut_connection_inside_a_batch_of_five_loses_none(self):
        self.subscribe()
        self.receiver.faults = [receiver.Receiver.CUT]
        due = self.post([1] * 5)
        self.assertEqual({body: 1 for body in due}, self.settled(due, 1))
        self.assertEqual(1, len(self.receiver.refused))

    def test_a_503_is_retried(self):
        self.subscribe()
        self.receiver.faults = [503]
        due = self.post([1])
        self.assertEqual({body: 1 for body in due}, self.settled(due, 1))

    def test_a_dead_subscriber_costs_the_healthy_one_nothing(self):
        self.subscribe(self.DEAD)
        self.subscribe()
        due = self.post([1, 1, 2])
        # Three leases: a push taken again would have come by then.
        self.assertEqual({body: 1 for body in due},
                         self.settled(due, 3 * self.lease))

    def test_a_subscriber_that_never_answers_costs_only_its_slots(self):
        hanging = receiver.Receiver(stall=30)
        self.addCleanup(hanging.stop)
        self.subscribe(hanging.url)
        self.subscribe()
        zaqar = self.stack.processes[-1].pid
        before = threads(zaqar)
        due = self.post([1] * 20)
        self.assertEqual(20, self.receiver.wait_for(20, 30))
        during = threads(zaqar)
        self.assertEqual({body: 1 for body in due}, self.settled(due, 3))
        # Two at a time, each cut after its 1 s read timeout, none
        # started after the lease.
        self.assertLessEqual(len(hanging.got) + len(hanging.refused),
                             2 * self.lease)
        self.assertLessEqual(during, before + 8 + 2)


class FailedPushes(FaultsBase):
    """What a subscriber refused, listed and sent again by the CLI (on
    a store that is not pooled: the CLI reads one store)."""

    # Nothing here waits for a lease or a timeout: the defaults', so
    # that a loaded machine's slow store or receiver costs no attempt
    # (with 6 s, attempts could start until 3 s after the take began;
    # with 1 s, a 2xx answered late would be sent again).
    lease = push_delivery.PushTest.lease
    push_options = {}

    def setUp(self):
        super().setUp()
        # A test worker's tests share its Swift, and its failed pushes
        # outlive them: start from none, or the CLI lists and sends
        # the others' too.
        store = self.push_store()
        for _ in range(100):
            left = store.failed(100)
            if not left:
                break
            store.forget_failed(left)
        self.assertEqual([], store.failed(1))

    def push_store(self):
        """The push store of the server's zaqar.conf, in this process
        (as ``zaqar-delay-manage`` builds it)."""
        noise.quiet_profiler()
        conf = cfg.ConfigOpts()
        logging.register_options(conf)
        opts.register_opts(conf)
        conf(args=[], project='zaqar',
             default_config_files=[self.stack.conf])
        return dispatcher_cmd.build(conf).pusher.store

    def manage(self, *args):
        """zaqar-delay-manage pushes ARGS on the server's zaqar.conf:
        (exit status, standard output)."""
        done = subprocess.run(
            [os.path.join(os.path.dirname(sys.executable),
                          'zaqar-delay-manage'), '--config-file',
             self.stack.conf, 'pushes'] + list(args),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            timeout=120)
        if done.returncode:
            print(done.stderr[-3000:])
        return done.returncode, done.stdout

    def test_a_refused_push_is_listed_and_sent_again_by_the_cli(self):
        refusing = receiver.Receiver()
        self.addCleanup(refusing.stop)
        refusing.status = 404
        self.subscribe(refusing.url)
        self.subscribe()
        due = self.post([1])
        self.assertEqual(1, self.receiver.wait_for(1, 60))
        deadline = time.monotonic() + 30
        records = []
        while not records and time.monotonic() < deadline:
            time.sleep(0.5)
            status, out = self.manage('failed')
            self.assertEqual(0, status)
            records = [json.loads(line) for line in out.splitlines()]
        (record,) = records
        self.assertEqual(
            (self.name, self.project, refusing.url, 404, 1, 'refused'),
            (record['queue'], record['project'], record['subscriber'],
             record['status'], record['attempts'], record['reason']))
        self.assertEqual([], refusing.got)
        refusing.status = 204
        status, out = self.manage('resend')
        self.assertEqual(0, status, out)
        self.assertIn('sent (204)', out)
        self.assertEqual(list(due), [b['body'] for b in refusing.bodies()])
        self.assertEqual(record['message_id'], refusing.bodies()[0]['id'])
        self.assertEqual((0, ''), self.manage('failed'))
        self.assertEqual(1, len(self.receiver.got))    # not sent again
