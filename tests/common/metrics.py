"""Scrapes of the metrics HTTP servers, written once for every store.

A real zaqar-server with zaqar-delay's notifier stage and no dispatcher
in it, a dotted queue name and a project id with a dot: known traffic
(delayed, due and claimed messages) is scraped from a real
``zaqar-delay-exporter``; then a ``zaqar-delay-dispatcher
--metrics-port`` pushes to a receiver and to a subscriber that is not
there, and its own counters are scraped. Values are read with
prometheus_client's parser.
"""

import os
import subprocess
import sys
import time
import uuid

from prometheus_client import parser
import requests

from tests.common import push_delivery
from tests.common import push_faults
from zaqar_delay.dev import ports

# One attempt per subscriber (Zaqar wants maximum - minimum >= 10).
NO_RETRY = {'retries_with_no_delay': 0, 'minimum_delay_retries': 0,
            'minimum_delay': 1, 'maximum_delay': 11,
            'maximum_delay_retries': 0}
SCRAPE_WAIT = 60    # seconds a condition on scraped values may take


def scrape(port):
    """{(sample name, frozenset of labels): value} of one scrape."""
    text = requests.get('http://127.0.0.1:%d/metrics' % port,
                        timeout=60).text
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in parser.text_string_to_metric_families(text)
            for sample in family.samples}


def labelled(samples, name, **labels):
    """The value of the one sample of ``name`` with ``labels`` among
    its labels, or None."""
    found = [value for (sample, have), value in samples.items()
             if sample == name and set(labels.items()) <= have]
    assert len(found) <= 1, (name, labels, found)
    return found[0] if found else None


class MetricsScrapes(push_delivery.PushTest):
    in_server = False
    lease = 20
    queue_prefix = 'metrics.q-'
    push_options = {'connect_timeout': 1, 'read_timeout': 1}
    DEAD = 'http://localhost:9/nobody-listens'
    # The store holds other tests' queues and pushes too (a Swift
    # account): store-wide values are at least the test's own.
    shared = False
    # Whether the store counts claims, releases and dead letters
    # (zaqar_delay.counts); swift.delay does not.
    counts_claims = True

    def setUp(self):
        # Per-queue series of this test's project only (the allow-list).
        self.project = 'tenant.a:' + uuid.uuid4().hex[:8]
        super().setUp()

    def store_options(self):
        return {'delay_metrics': {'host': '127.0.0.1',
                                  'queues': self.project + '/*'}}

    def assertStoreWide(self, expected, value):
        if self.shared:
            self.assertGreaterEqual(value, expected)
        else:
            self.assertEqual(expected, value)

    def make_queue(self):
        return push_faults.RawQueue(
            self.stack.url, self.name, self.project,
            {'_default_message_delay': push_delivery.QUEUE_DELAY})

    def serve(self, command, *args):
        """Start a console script serving metrics on a free port; the
        port once it answers."""
        port = ports.free_port()
        proc = subprocess.Popen(
            [os.path.join(os.path.dirname(sys.executable), command),
             '--config-file', self.stack.conf] + list(args) +
            ['--port' if command.endswith('exporter') else '--metrics-port',
             str(port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        deadline = time.monotonic() + SCRAPE_WAIT
        while time.monotonic() < deadline:
            self.assertIsNone(proc.poll(), '%s exited' % command)
            try:
                # A first scrape reads the store: under load (a CI run
                # at load 15) it took more than 5 s; it is served then.
                requests.get('http://127.0.0.1:%d/' % port, timeout=5)
                return port
            except requests.ConnectionError:     # ConnectTimeout too
                time.sleep(0.2)
            except requests.ReadTimeout:
                return port
        self.fail('%s did not serve' % command)

    def until(self, port, check):
        """Scrape until ``check(samples)`` is true; the last samples."""
        deadline = time.monotonic() + SCRAPE_WAIT
        while True:
            samples = scrape(port)
            if check(samples) or time.monotonic() > deadline:
                return samples
            time.sleep(0.5)

    def test_known_traffic_is_scraped_from_exporter_and_dispatcher(self):
        ours = dict(project=self.project, queue=self.name)
        before = int(time.time())
        self.queue.post([{'body': 'later-%d' % n, 'ttl': 7200,
                          'delay': 3600} for n in range(3)])
        self.queue.post([{'body': 'now-%d' % n, 'ttl': 600, 'delay': 0}
                         for n in range(4)])
        self.queue._call('post', '/claims?limit=2', {'ttl': 300,
                                                     'grace': 60})
        exporter = self.serve('zaqar-delay-exporter')
        samples = scrape(exporter)
        after = int(time.time()) + 1

        def value(name, **labels):
            return labelled(samples, 'zaqar_delay_' + name, **labels)

        self.assertEqual(
            {'delayed': 3, 'ready': 2, 'claimed': 2},
            {state: value('queue_messages', state=state, **ours)
             for state in ('delayed', 'ready', 'claimed')})
        age = value('queue_oldest_due_age_seconds', **ours)
        self.assertTrue(0 <= age <= after - before, age)
        next_due = value('queue_next_due_timestamp_seconds', **ours)
        self.assertTrue(before + 3600 <= next_due <= after + 3600, next_due)
        self.assertEqual(1, value('store_up'))
        self.assertEqual(1, value('queues', which='exported'))
        self.assertStoreWide(7, value('pushes_pending'))
        self.assertStoreWide(0, value('pushes_failed_kept'))

        # Pushes: one subscriber takes them, one is not there.
        hooked = push_faults.RawQueue(
            self.stack.url, self.name + '.hooked', self.project,
            {'_retry_policy': NO_RETRY,
             '_default_message_delay': push_delivery.QUEUE_DELAY})
        hooked.subscribe(self.receiver.url)
        hooked.subscribe(self.DEAD)
        posted = time.time()
        # One due at once, one a second later.
        hooked.post([{'body': 'pushed-%d' % n, 'ttl': 600, 'delay': n}
                     for n in range(2)])
        dispatcher = self.serve('zaqar-delay-dispatcher')
        self.assertEqual(2, self.receiver.wait_for(2, SCRAPE_WAIT))
        samples = self.until(dispatcher, lambda s: labelled(
            s, 'zaqar_delay_pushes_failed_total',
            subscriber_host='localhost') == 2 and (self.shared or labelled(
                s, 'zaqar_delay_pushes_pending') == 3))
        self.assertEqual(2, value('pushes_failed_total',
                                  subscriber_host='localhost'))
        self.assertStoreWide(2, value('pushes_sent_total',
                                      subscriber_host='127.0.0.1'))
        self.assertStoreWide(4, value('push_delivery_seconds_count'))
        # Lateness: one per push a subscriber took, from its due time;
        # no push left before it was due.
        self.assertStoreWide(2, value('push_lateness_seconds_count'))
        if not self.shared:
            lateness = value('push_lateness_seconds_sum')
            self.assertTrue(
                0 <= lateness <= 2 * (time.time() - posted + 1), lateness)
        self.assertEqual(0, value('early_deliveries_total', via='push'))
        if not self.shared:
            self.assertIsNone(value('pushes_failed_total',
                                    subscriber_host='127.0.0.1'))
        # The queue's 4 due messages had no subscriber: their pushes
        # are done; the 3 delayed ones wait for their time.
        self.assertStoreWide(3, value('pushes_pending'))
        self.assertStoreWide(2, value('pushes_failed_kept'))
        self.assertEqual(2, value('queues', which='exported'))
        self.assertEqual(
            {'delayed': 0, 'ready': 2, 'claimed': 0},
            {state: value('queue_messages', state=state,
                          project=self.project, queue=self.name + '.hooked')
             for state in ('delayed', 'ready', 'claimed')})

    def claim_all(self, queue, count, ttl=300):
        """Claim until ``count`` messages of ``queue`` were taken; their
        claims, {claim id: [message id]}."""
        claims, taken = {}, 0
        deadline = time.monotonic() + SCRAPE_WAIT
        while taken < count and time.monotonic() < deadline:
            reply = queue._call('post', '/claims?limit=10',
                                {'ttl': ttl, 'grace': 60})
            if not reply:
                time.sleep(0.2)
                continue
            claim = reply['messages'][0]['href'].split('claim_id=')[1]
            claims[claim] = [m['id'] for m in reply['messages']]
            taken += len(reply['messages'])
        self.assertEqual(count, taken)
        return claims

    def test_claims_releases_and_dead_letters_are_counted(self):
        # Two delayed messages (due in a second) and one posted without
        # a delay, on the delayed queue: the two delayed ones count.
        self.queue.post([{'body': 'soon-%d' % n, 'ttl': 600, 'delay': 1}
                         for n in range(2)] +
                        [{'body': 'at-once', 'ttl': 600, 'delay': 0}])
        posted = time.time()
        self.claim_all(self.queue, 3)
        claimed = time.time()
        # Released with a backoff: two; without: none.
        backoff = push_faults.RawQueue(
            self.stack.url, self.name + '.backoff', self.project,
            {'_retry_backoff': {'initial': 600}})
        backoff.post([{'body': n, 'ttl': 600} for n in range(2)])
        push_faults.RawQueue(self.stack.url, self.name + '.dl',
                             self.project, {})
        dead = push_faults.RawQueue(
            self.stack.url, self.name + '.dead', self.project,
            {'_max_claim_count': 1, '_dead_letter_queue': self.name + '.dl'})
        dead.post([{'body': n, 'ttl': 600} for n in range(3)])
        for queue, count in ((backoff, 2), (dead, 3)):
            for claim in self.claim_all(queue, count):
                queue._call('delete', '/claims/' + claim)
        # Claimed a second time: moved to the dead-letter queue.
        self.assertIsNone(dead._call('post', '/claims?limit=10',
                                     {'ttl': 300, 'grace': 60}))
        samples = scrape(self.serve('zaqar-delay-exporter'))

        def value(name, **labels):
            return labelled(samples, 'zaqar_delay_' + name, **labels)

        if not self.counts_claims:
            for name in ('claim_lateness_seconds_count',
                         'early_claims_total', 'dead_lettered_total',
                         'releases_with_backoff_total'):
                self.assertIsNone(value(name), name)
            return
        self.assertEqual(2, value('claim_lateness_seconds_count'))
        self.assertEqual(2, value('claim_lateness_seconds_bucket',
                                  le='+Inf'))
        late = value('claim_lateness_seconds_sum')
        self.assertTrue(0 <= late <= 2 * (claimed - posted + 1), late)
        self.assertEqual(0, value('early_claims_total'))
        self.assertEqual(2, value('releases_with_backoff_total',
                                  via='release'))
        self.assertEqual(0, value('releases_with_backoff_total',
                                  via='claim_expiry'))
        self.assertEqual(3, value('dead_lettered_total'))
        self.assertEqual(
            {'delayed': 0, 'ready': 3, 'claimed': 0},
            {state: value('queue_messages', state=state,
                          project=self.project, queue=self.name + '.dl')
             for state in ('delayed', 'ready', 'claimed')})
