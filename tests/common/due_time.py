"""Due means due, to the millisecond, through a real zaqar-server.

Messages are posted one a request at chosen fractions of a second with
delays of 1 and 2 s, into a delayed queue with a webhook subscriber,
while a client claims every few milliseconds. A message's due time is
at least the time its post was sent plus its delay: a claim that
returned it, or a push that reached the subscriber, before that was
certainly early (both are timed when they arrive at the client).
"""

import threading
import time

from zaqarclient.queues import client

from tests.common import push_delivery

# When in its second each message is posted, and its delay.
FRACTIONS = (0.02, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 0.98)
DELAYS = (1, 2)
CLAIM_EVERY = 0.005


class NeverEarly(push_delivery.PushTest):

    def claim_until(self, stop, claimed):
        """Claim every CLAIM_EVERY s until ``stop``; {body: when the
        first claim returning it came back}."""
        cli = client.Client(self.stack.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': self.project}}})
        queue = cli.queue(self.name)
        while not stop.is_set():
            for message in queue.claim(ttl=300, grace=60, limit=10):
                claimed.setdefault(message.body, time.time())
            stop.wait(CLAIM_EVERY)

    def post_at_fractions(self):
        """{body: its post's send time plus its delay}."""
        due = {}
        for n, fraction in enumerate(FRACTIONS):
            time.sleep((fraction - time.time() % 1) % 1)
            body, delay = 'm-%d' % n, DELAYS[n % len(DELAYS)]
            sent = time.time()
            self.queue.post([{'body': body, 'ttl': 600, 'delay': delay}])
            due[body] = sent + delay
        return due

    def test_nothing_is_claimed_or_pushed_before_its_delay_ends(self):
        self.subscribe()
        claimed, stop = {}, threading.Event()
        claimer = threading.Thread(target=self.claim_until,
                                   args=(stop, claimed))
        claimer.start()
        self.addCleanup(claimer.join, 30)
        self.addCleanup(stop.set)
        due = self.post_at_fractions()
        deadline = time.monotonic() + 60
        while (len(claimed) < len(due) or len(self.arrivals()) < len(due)) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        stop.set()
        pushed = {body: min(times) for body, times in self.arrivals().items()}
        self.assertEqual((set(due), set(due)), (set(claimed), set(pushed)))
        early = {body: ('claimed %.3f s early' % (due[body] - claimed[body]))
                 for body in due if claimed[body] < due[body]}
        early.update({body + ' push': 'pushed %.3f s early' % (
            due[body] - pushed[body]) for body in due
            if pushed[body] < due[body]})
        self.assertEqual({}, early)
