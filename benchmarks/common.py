"""What the benchmark scripts share: drivers from a conf, timed calls."""

import statistics
import subprocess
import sys
import threading
import time
import uuid

from tests.common import concurrency
from tests.fixtures import storage

CLIENT = str(uuid.uuid4())
PROJECT = 'bench'


def make_driver(data_class, control_class, conf_text):
    """A (control, data) driver pair configured by ``conf_text``."""
    return storage.drivers_of_text(conf_text, control_class, data_class)


def post_delayed(data, queue, count, batch=1000):
    while count > 0:
        n = min(batch, count)
        data.message_controller.post(
            queue, [{'ttl': 86400, 'body': i, 'delay': 3600}
                    for i in range(n)], CLIENT, PROJECT)
        count -= n


def timed(repeats, budget, step):
    """Median ms of ``step()`` (which returns the part to time)."""
    times = []
    started = time.monotonic()
    for _ in range(repeats):
        times.append(step())
        if time.monotonic() - started > budget:
            break
    return statistics.median(times), len(times)


def post_ready(data, queue):
    """The id of one message posted ready (``delay`` 0)."""
    (mid,) = data.message_controller.post(
        queue, [{'ttl': 600, 'body': 'ready', 'delay': 0}], CLIENT, PROJECT)
    return mid


def claim10_ms(data, queue, repeats, budget):
    """Median ms of a limit-10 claim that has to find the ten messages
    posted ready (in one post) just before; then deleted."""
    def step():
        ids = data.message_controller.post(
            queue, [{'ttl': 600, 'body': i, 'delay': 0} for i in range(10)],
            CLIENT, PROJECT)
        t0 = time.perf_counter()
        claim_id, msgs = data.claim_controller.create(
            queue, {'ttl': 60, 'grace': 60}, PROJECT, limit=10)
        elapsed = (time.perf_counter() - t0) * 1000
        if sorted(m['id'] for m in msgs) != sorted(ids):
            raise AssertionError('claim returned %r, wanted %r' % (
                [m['id'] for m in msgs], ids))
        data.message_controller.bulk_delete(queue, ids, PROJECT,
                                            claim_ids=[claim_id])
        return elapsed
    return timed(repeats, budget, step)


def claim_ms(data, queue, repeats, budget):
    """Median ms of a limit-1 claim that has to find one ready message."""
    def step():
        mid = post_ready(data, queue)
        return one_claim_ms(data, queue, mid)
    return timed(repeats, budget, step)


def one_claim_ms(data, queue, mid):
    """ms of a limit-1 claim that must return message ``mid`` (then
    deleted with its claim)."""
    t0 = time.perf_counter()
    claim_id, msgs = data.claim_controller.create(
        queue, {'ttl': 60, 'grace': 60}, PROJECT, limit=1)
    elapsed = (time.perf_counter() - t0) * 1000
    got = [m['id'] for m in msgs]
    if got != [mid]:
        raise AssertionError('claim returned %r, wanted %r' % (got, mid))
    data.message_controller.delete(queue, mid, PROJECT, claim=claim_id)
    return elapsed


def list_ms(data, queue, repeats, budget):
    """Median ms of a default list page (limit 10) finding one message."""
    def step():
        mid = post_ready(data, queue)
        t0 = time.perf_counter()
        pages = data.message_controller.list(
            queue, PROJECT, limit=10, echo=True, include_delayed=False)
        got = [m['id'] for m in next(pages)]
        elapsed = (time.perf_counter() - t0) * 1000
        if got != [mid]:
            raise AssertionError('list returned %r, wanted %r' % (got, mid))
        data.message_controller.delete(queue, mid, PROJECT)
        return elapsed
    return timed(repeats, budget, step)


def pop_ms(data, queue, repeats, budget):
    """Median ms of a limit-1 pop that has to find one ready message."""
    def step():
        mid = post_ready(data, queue)
        t0 = time.perf_counter()
        got = [m['id'] for m in data.message_controller.pop(
            queue, 1, project=PROJECT)]
        elapsed = (time.perf_counter() - t0) * 1000
        if got != [mid]:
            raise AssertionError('pop returned %r, wanted %r' % (got, mid))
        return elapsed
    return timed(repeats, budget, step)


def post_rate(data, queue, delay, seconds=2.0):
    msgs = [{'ttl': 3600, 'body': {'n': i}} for i in range(10)]
    if delay is not None:
        for msg in msgs:
            msg['delay'] = delay
    sent, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        data.message_controller.post(queue, msgs, CLIENT, PROJECT)
        sent += len(msgs)
    return sent / (time.perf_counter() - started)


def parallel_claimers(data, queue, messages, claimers, deadline):
    """Claimer threads on one queue of messages with delays of 0-2 s.

    Each thread claims 10 and deletes what it got, until every message
    is delivered or ``deadline`` seconds pass. Returns (seconds,
    delivered, early, double, lost); see ``tests.common.concurrency``.
    """
    due = concurrency.post_mixed(data, queue, PROJECT, messages, (0, 1, 2))
    outcome = concurrency.run_claimers(lambda: data, queue, PROJECT, due,
                                       claimers, deadline)
    return (outcome.seconds, len(outcome.acked), len(outcome.early),
            len(outcome.double), len(set(due) - set(outcome.acked)))


class Hook:
    """The webhook receiver (``tests.fixtures.receiver``), in a process
    of its own; ``arrivals`` holds (arrival time, message id) pairs."""

    def __init__(self):
        self.proc = subprocess.Popen(
            [sys.executable, '-m', 'tests.fixtures.receiver'],
            stdout=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().strip()
        self.arrivals = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            at, message_id = line.split()
            self.arrivals.append((float(at), message_id))

    def wait_for(self, count, timeout):
        deadline = time.monotonic() + timeout
        while len(self.arrivals) < count and time.monotonic() < deadline:
            time.sleep(0.05)

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
