"""A stream of posts and claims from several python-zaqarclient users
through an outage: a process killed with kill -9 in the middle of it and
started again (``disrupt()``, a backend's test says which).

Posters post pairs of messages with delays of 0-2 s; claimers claim
(ttl 60 s, the smallest Zaqar accepts) and delete each message they get
with its claim. Once the stream has gone on after the outage, the test
waits until every claim made before or during it has ended, then drains
the queue, and checks the invariants of ``doc/source/failures.rst``:

* no message is delivered before its delay has passed;
* no message is delivered to a claim while an earlier claim holds it
  (before the first claim's ttl has passed);
* once every claim has ended, every acknowledged post that nobody sent
  a delete for is claimable, once: nothing
  acknowledged is lost and nothing stays hidden longer than a claim's
  ttl; a message whose delete was acknowledged never comes back;
* what is claimable was posted (a post whose reply was lost may or may
  not be there).
"""

import os
import threading
import time
import uuid

from zaqarclient.queues import client
from zaqarclient.transport import errors as zaqar_errors

CLAIM_TTL = 60      # Zaqar's smallest
POSTERS, CLAIMERS = 3, 3
DELAYS = (0, 1, 2)
# Whole-second clocks: a due time may be up to a second before the
# posting request started plus the delay.
CLOCK = 1.0
DRAIN_SECONDS = 600   # the most a drain may take, 503s included


class Stream:
    """The users' side: what was acknowledged, delivered and deleted."""

    def __init__(self, url, queue, delays=DELAYS):
        self.url, self.queue = url, queue
        self.delays = delays
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.attempted = {}     # token -> delay
        self.posted = {}        # message id -> (token, earliest due)
        self.delivered = {}     # message id -> [(claim sent, replied)]
        self.deleting = set()   # deletes sent (applied or not)
        self.deleted = set()    # deletes acknowledged
        self.errors = 0
        self.failures = []      # when each failed request ended
        self.acked_posts = []   # (sent, replied) of acknowledged posts
        # When the last claim that may still hold a message ends: a
        # claim whose reply was lost, or one with a delete that failed.
        self.held_until = 0.0
        self.threads = [threading.Thread(target=self._post, args=(i,))
                        for i in range(POSTERS)]
        self.threads += [threading.Thread(target=self._claim)
                         for _ in range(CLAIMERS)]

    def client(self):
        return client.Client(self.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': 'outage'}}})

    def start(self):
        # A delayed queue: messages' own delays apply.
        self.client().queue(self.queue, force_create=True).metadata(
            new_meta={'_default_message_delay': 1})
        for thread in self.threads:
            thread.start()

    def join(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(120)

    def wait_for(self, posted, delivered, timeout=120):
        """Until ``posted`` posts and ``delivered`` deliveries more than
        now are acknowledged."""
        posted += len(self.posted)
        delivered += len(self.delivered)
        deadline = time.monotonic() + timeout
        while (len(self.posted) < posted or
               len(self.delivered) < delivered):
            if time.monotonic() > deadline:
                raise AssertionError('the stream stalled: %d posted, %d '
                                     'delivered, %d errors' % (
                                         len(self.posted),
                                         len(self.delivered), self.errors))
            time.sleep(0.1)

    def _failed(self, claimed=False):
        """A request failed; ``claimed``: it may have left a claim. The
        server may make that claim as late as its reply (a request it
        retried through a failover), so the claim ends at the latest a
        claim ttl after the failure was seen."""
        with self.lock:
            self.errors += 1
            self.failures.append(time.time())
            if claimed:
                self.held_until = max(self.held_until,
                                      time.time() + CLAIM_TTL + 2 * CLOCK)
        time.sleep(0.1)

    def _post(self, poster):
        queue = self.client().queue(self.queue)
        n = 0
        while not self.stop.is_set():
            n += 1
            batch = []
            for delay in (self.delays[n % len(self.delays)],
                          self.delays[(n + 1) % len(self.delays)]):
                token = '%d-%d-%d' % (poster, n, delay)
                self.attempted[token] = delay
                batch.append({'ttl': 600, 'delay': delay,
                              'body': {'token': token}})
            started = time.time()
            try:
                reply = queue.post(batch)
            except Exception:
                self._failed()
                continue
            with self.lock:
                self.acked_posts.append((started, time.time()))
                for msg, href in zip(batch, reply['resources']):
                    self.posted[href.rsplit('/', 1)[1]] = (
                        msg['body']['token'], started + msg['delay'])

    def _claim(self):
        queue = self.client().queue(self.queue)
        while not self.stop.is_set():
            started = time.time()
            try:
                claimed = list(queue.claim(ttl=CLAIM_TTL, grace=60,
                                           limit=5))
            except Exception:
                self._failed(claimed=True)
                continue
            now = time.time()
            with self.lock:
                for msg in claimed:
                    self.delivered.setdefault(msg.id, []).append(
                        (started, now))
            for msg in claimed:
                with self.lock:
                    self.deleting.add(msg.id)
                try:
                    msg.delete()
                except Exception:
                    self._failed(claimed=True)
                    continue
                with self.lock:
                    self.deleted.add(msg.id)
            if not claimed:
                time.sleep(0.05)

    def drain(self, deadline=DRAIN_SECONDS):
        """Every claimable message: {id: token}.

        A 503 (Zaqar's "try again") is retried, as a client does, until
        ``deadline`` seconds have passed: a claim that failed may have
        left a claim, and a delete that failed leaves ours, so the drain
        goes on until those have ended; a message whose delete failed
        may then come back once."""
        queue = self.client().queue(self.queue)
        found, undeleted = {}, set()
        held_until, give_up = 0.0, time.time() + deadline
        while True:
            if time.time() > give_up:
                raise AssertionError('drain: 503s for %d s' % deadline)
            try:
                claimed = list(queue.claim(ttl=CLAIM_TTL, grace=60,
                                           limit=20))
            except zaqar_errors.ServiceUnavailableError:
                held_until = time.time() + CLAIM_TTL + 2 * CLOCK
                time.sleep(0.5)
                continue
            if not claimed:
                if time.time() >= held_until:
                    return found
                time.sleep(1)
                continue
            for msg in claimed:
                if msg.id in found and msg.id not in undeleted:
                    raise AssertionError('%s drained twice' % msg.id)
                found[msg.id] = msg.body['token']
                undeleted.discard(msg.id)
                try:
                    msg.delete()
                except zaqar_errors.ServiceUnavailableError:
                    undeleted.add(msg.id)
                    held_until = time.time() + CLAIM_TTL + 2 * CLOCK


class OutageTests:
    """Mixed into a test class with a running zaqar-server (``url()``)
    and a ``disrupt()`` that kills and starts a process."""

    delays = DELAYS     # of the stream's posts

    def url(self):
        raise NotImplementedError

    def disrupt(self):
        raise NotImplementedError

    def test_nothing_lost_early_twice_or_stuck_through_an_outage(self):
        stream = self.stream = Stream(
            self.url(), 'outage-' + uuid.uuid4().hex[:8], self.delays)
        stream.start()
        try:
            stream.wait_for(posted=40, delivered=20)
            self.disrupt()
            stream.wait_for(posted=40, delivered=20)
        finally:
            stream.join()
        delivered = stream.delivered
        self.check_stream(stream, delivered)
        # Until every claim of the stream that may hold a message ends.
        time.sleep(max(0.0, stream.held_until - time.time()))
        drained = stream.drain()
        self.check_drained(stream, delivered, drained)
        report = os.environ.get('ZAQAR_DELAY_FAULT_MATRIX_REPORT')
        if report:
            with open(report, 'a') as f:
                f.write('%s posted=%d delivered=%d deleted=%d errors=%d '
                        'drained=%d\n' % (
                            type(self).__name__, len(stream.posted),
                            len(delivered), len(stream.deleted),
                            stream.errors, len(drained)))

    def check_stream(self, stream, delivered):
        self.assertGreater(stream.errors, 0, 'the outage went unnoticed')
        # Only what is certain from this side counts: a claim is made
        # between its request and its reply, with whole-second clocks.
        for mid, times in delivered.items():
            for (sent, _), (_, replied) in zip(times, times[1:]):
                self.assertGreaterEqual(
                    replied, sent + CLAIM_TTL - CLOCK,
                    '%s delivered to a second claim while the first held '
                    'it: %r' % (mid, times))
            if mid in stream.posted:
                due = stream.posted[mid][1]
                self.assertGreaterEqual(times[0][1], due - CLOCK,
                                        '%s delivered early' % mid)

    def check_drained(self, stream, delivered, drained):
        tokens = set(stream.attempted)
        self.assertEqual(set(), set(drained.values()) - tokens)
        came_back = set(drained) & stream.deleted
        self.assertEqual(set(), came_back, 'deleted messages came back')
        # A delete whose reply was lost may or may not have been applied.
        lost = set(stream.posted) - stream.deleting - set(drained)
        self.assertEqual(set(), lost, 'acknowledged posts lost or stuck')
