"""Several claimers on one queue with mixed delays, backend-neutral.

Zero early deliveries, zero messages given to a second live claim, zero
lost: every message is acknowledged exactly once. A backend's test module
subclasses ``ConcurrentClaimers`` with ``_driver()`` returning a
(control driver, data driver) pair on the shared store, called once per
claimer thread.
"""

import random
import threading
import time
import uuid

from oslo_utils import timeutils

CLAIMERS = 4
QUEUE = 'busy'
PROJECT = 'p'


class ConcurrentClaimers:
    messages = 3000
    claim_seconds = 60   # time the claimers have to take every message

    def test_claimers_never_early_never_double_never_lost(self):
        control, data = self._driver()
        control.queue_controller.create(QUEUE, project=PROJECT)
        rng = random.Random(7)
        due = {}
        for start in range(0, self.messages, 10):
            batch = [{'ttl': 600, 'body': start + i,
                      'delay': rng.choice((0, 0, 1, 2, 3))}
                     for i in range(10)]
            now = timeutils.utcnow_ts()
            ids = data.message_controller.post(QUEUE, batch,
                                               str(uuid.uuid4()), PROJECT)
            for mid, msg in zip(ids, batch):
                due[mid] = now + msg['delay']

        lock = threading.Lock()
        holder, acked, early, double = {}, {}, [], []
        deadline = time.monotonic() + self.claim_seconds

        def claimer(seed):
            _, own = self._driver()
            claims = own.claim_controller
            msgs = own.message_controller
            rnd = random.Random(seed)
            while len(acked) < self.messages and time.monotonic() < deadline:
                # Claims outlive the test: any second taker is a double.
                cid, got = claims.create(QUEUE, {'ttl': 600, 'grace': 10},
                                         PROJECT, limit=rnd.randint(1, 10))
                # Read after the claim: a message due later than this was
                # certainly claimed early (due[] is a lower bound of d).
                now = timeutils.utcnow_ts()
                ids = [m['id'] for m in got]
                with lock:
                    for mid in ids:
                        if due[mid] > now:
                            early.append(mid)
                        if mid in holder:
                            double.append(mid)
                        holder[mid] = cid
                if not ids:
                    time.sleep(0.01)
                elif rnd.random() < 0.2:
                    with lock:
                        for mid in ids:
                            del holder[mid]
                    claims.delete(QUEUE, cid, PROJECT)
                else:
                    for mid in ids:
                        msgs.delete(QUEUE, mid, PROJECT, claim=cid)
                    with lock:
                        for mid in ids:
                            del holder[mid]
                            acked[mid] = acked.get(mid, 0) + 1

        threads = [threading.Thread(target=claimer, args=(i,))
                   for i in range(CLAIMERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        self.assertEqual([], early)
        self.assertEqual([], double)
        self.assertEqual(set(due), set(acked))
        self.assertEqual({1}, set(acked.values()))
        left = next(data.message_controller.list(
            QUEUE, PROJECT, echo=True, include_claimed=True,
            include_delayed=True))
        self.assertEqual([], list(left))
