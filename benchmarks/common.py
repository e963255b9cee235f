"""What the benchmark scripts share: drivers from a conf, timed calls."""

import random
import statistics
import tempfile
import threading
import time
import uuid

from oslo_config import cfg
from oslo_log import log
from oslo_utils import timeutils
from osprofiler import opts as profiler_opts
from zaqar.conf import default
from zaqar.conf import drivers
from zaqar.conf import profiler

from tests.functional import storage

CLIENT = str(uuid.uuid4())
PROJECT = 'bench'


def make_driver(data_class, control_class, conf_text):
    """A (control, data) driver pair configured by ``conf_text``."""
    with tempfile.NamedTemporaryFile('w', suffix='.conf',
                                     delete=False) as f:
        f.write(conf_text)
    conf = cfg.ConfigOpts()
    log.register_options(conf)
    conf(args=[], project='zaqar', default_config_files=[f.name])
    conf.register_opts(default.ALL_OPTS)
    conf.register_opts(drivers.ALL_OPTS, group=drivers.GROUP_NAME)
    profiler_opts.set_defaults(conf)
    conf.register_opts(profiler.ALL_OPTS, group=profiler.GROUP_NAME)
    return storage.drivers(conf, control_class, data_class)


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


def claim_ms(data, queue, repeats, budget):
    """Median ms of a limit-1 claim that has to find one ready message."""
    def step():
        (mid,) = data.message_controller.post(
            queue, [{'ttl': 600, 'body': 'ready', 'delay': 0}],
            CLIENT, PROJECT)
        t0 = time.perf_counter()
        claim_id, msgs = data.claim_controller.create(
            queue, {'ttl': 60, 'grace': 60}, PROJECT, limit=1)
        elapsed = (time.perf_counter() - t0) * 1000
        got = [m['id'] for m in msgs]
        if got != [mid]:
            raise AssertionError('claim returned %r, wanted %r' % (got, mid))
        data.message_controller.delete(queue, mid, PROJECT, claim=claim_id)
        return elapsed
    return timed(repeats, budget, step)


def list_ms(data, queue, repeats, budget):
    """Median ms of a default list page (limit 10) finding one message."""
    def step():
        (mid,) = data.message_controller.post(
            queue, [{'ttl': 600, 'body': 'ready', 'delay': 0}],
            CLIENT, PROJECT)
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
    delivered, early, double, lost): a delivery is early when it comes
    before the message's due time (a lower bound, taken before posting),
    double when another live claim already held the message.
    """
    rng = random.Random(7)
    due = {}
    for start in range(0, messages, 10):
        batch = [{'ttl': 600, 'body': start + i,
                  'delay': rng.choice((0, 1, 2))} for i in range(10)]
        now = timeutils.utcnow_ts()
        ids = data.message_controller.post(queue, batch, CLIENT, PROJECT)
        for mid, msg in zip(ids, batch):
            due[mid] = now + msg['delay']
    lock = threading.Lock()
    held, acked, early, double = set(), set(), [], []
    started = time.monotonic()

    def claimer():
        while len(acked) < messages and \
                time.monotonic() - started < deadline:
            cid, got = data.claim_controller.create(
                queue, {'ttl': 600, 'grace': 10}, PROJECT, limit=10)
            now = timeutils.utcnow_ts()
            ids = [m['id'] for m in got]
            with lock:
                early.extend(mid for mid in ids if due[mid] > now)
                double.extend(mid for mid in ids if mid in held)
                held.update(ids)
            if not ids:
                time.sleep(0.01)
                continue
            for mid in ids:
                data.message_controller.delete(queue, mid, PROJECT,
                                               claim=cid)
            with lock:
                held.difference_update(ids)
                acked.update(ids)

    threads = [threading.Thread(target=claimer) for _ in range(claimers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return (time.monotonic() - started, len(acked), len(early), len(double),
            len(set(due) - acked))
