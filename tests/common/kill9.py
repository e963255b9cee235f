"""Worker processes killed with kill -9 at random moments, on one store.

The test posts ``PREFILL`` messages, then ``WORKERS`` processes
(``kill9_worker``) post (delays 0-3 s), claim (ttl
2-4 s, grace 0-2 s), delete with their claim or without one, release,
renew and pop at random, each on its own drivers. The test kills one of
them with SIGKILL every 1-3 s (once it has started) and starts
another, ``KILLS`` times, then kills the rest. It then drains the queue
with claims of ten minutes until every claim, delete hold and pop that a
killed worker may have left has ended (``HIDDEN_AT_MOST`` after the last
kill) and nothing more comes, and checks, from the workers' logs:

* every acknowledged post that no worker sent a delete for comes back
  once, and only once;
* no message whose delete (or pop) was acknowledged comes back;
* an acknowledged post that did not come back and that no delete was
  sent for is gone, not hidden: a pop killed after its delete and
  before its reply is the only thing that removes a message unseen,
  so there are no more such messages than those pops could take.

A backend's test subclasses ``KillTests`` with ``store``,
``conf_file``, ``worker_extra()`` and ``data()``.
"""

import collections
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid

from zaqar.storage import errors

WORKERS = 3
PREFILL = 60
KILLS = 30
# The longest a killed worker's request can keep a message from claims:
# a pop's claim (60 s) or a delete's hold (swift.delay: 60 s), beside
# claims of 4 s + 2 s grace, delays of 3 s and Swift's 6 s lock doors.
HIDDEN_AT_MOST = 70
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


class Run:
    """The workers of one run and their logs."""

    def __init__(self, args, folder, seed):
        self.args, self.folder = args, folder
        self.rnd = random.Random(seed)
        self.workers, self.started, self.kills = {}, 0, 0

    def spawn(self):
        self.started += 1
        log = os.path.join(self.folder, 'worker-%d.log' % self.started)
        args = dict(self.args, log=log, seed=self.rnd.random())
        proc = subprocess.Popen(
            [sys.executable, '-m', 'tests.common.kill9_worker',
             json.dumps(args)], cwd=ROOT, stdout=subprocess.DEVNULL,
            stderr=open(log + '.err', 'w'))
        self.workers[proc] = log

    def ready(self, proc):
        with open(self.workers[proc]) as log:
            return log.readline().startswith('{"event": "ready"')

    def kill(self, proc):
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        del self.workers[proc]

    def go(self, kills):
        for _ in range(WORKERS):
            self.spawn()
        try:
            while self.kills < kills:
                time.sleep(self.rnd.uniform(1.0, 3.0))
                ready = [proc for proc in self.workers
                         if os.path.exists(self.workers[proc])
                         and self.ready(proc)]
                for proc in list(self.workers):
                    if proc.poll() is not None:
                        raise AssertionError(
                            'a worker exited: %s' % open(
                                self.workers[proc] + '.err').read())
                if not ready:
                    continue
                self.kill(self.rnd.choice(ready))
                self.kills += 1
                self.spawn()
        finally:
            for proc in list(self.workers):
                self.kill(proc)

    def events(self):
        for n in range(1, self.started + 1):
            path = os.path.join(self.folder, 'worker-%d.log' % n)
            if not os.path.exists(path):
                continue
            with open(path) as log:
                for line in log:
                    if line.endswith('\n'):
                        yield json.loads(line)


# What the logs say was acknowledged, and what may have gone unseen.
Tally = collections.namedtuple(
    'Tally', 'posted deleting deleted unreplied_pops')


def tally(events):
    posted, deleting, deleted = set(), set(), set()
    pops = {}
    for event in events:
        kind = event['event']
        if kind == 'posted':
            posted.update(event['ids'])
        elif kind == 'deleting':
            deleting.update(event['ids'])
        elif kind == 'deleted':
            deleted.update(event['ids'])
        elif kind == 'popping':
            pops[event['token']] = event['limit']
        elif kind == 'popped':
            del pops[event['token']]
            deleting.update(event['ids'])
            deleted.update(event['ids'])
    return Tally(posted, deleting, deleted, sum(pops.values()))


class KillTests:
    """The test; a subclass names the store and gives its drivers."""

    store = None
    conf_file = None

    def worker_extra(self):
        """What a worker needs beyond the conf (MongoDB's database)."""
        return {}

    def data(self):
        """A data driver on the store the workers use: the test base's."""
        return self.driver

    def describe(self, data, queue, mid, project):
        """What the store holds of message ``mid`` that a claim did not
        take, for the report."""
        return repr(data.message_controller.get(queue, mid, project))

    def prefill(self, data, queue, project):
        ids = []
        for n in range(0, PREFILL, 10):
            ids += data.message_controller.post(
                queue, [{'ttl': 3600, 'body': n + i, 'delay': i % 4}
                        for i in range(10)], str(uuid.uuid4()), project)
        return ids

    def drain(self, data, queue, project, until):
        """Claim (ten minutes) until ``until`` and then until nothing
        comes twice in a row: how often each message came."""
        came, empty = collections.Counter(), 0
        while empty < 2 or time.time() < until:
            cid, got = data.claim_controller.create(
                queue, {'ttl': 600, 'grace': 0}, project, limit=20)
            got = [msg['id'] for msg in got] if cid else []
            came.update(got)
            empty = 0 if got else empty + 1
            if not got:
                time.sleep(0.5)
        return came

    def test_kill9_workers_lose_nothing(self):
        data = self.data()
        queue = 'kill.9-' + uuid.uuid4().hex[:6]
        project = 'p.kill-' + uuid.uuid4().hex[:6]
        self.control.queue_controller.create(queue, project=project)
        # ZAQAR_DELAY_KILL9_LOGS: where the workers' logs stay.
        folder = tempfile.mkdtemp(prefix='zaqar-delay-kill9-',
                                  dir=os.environ.get('ZAQAR_DELAY_KILL9_LOGS'))
        args = dict(self.worker_extra(), conf=self.conf_path(self.conf_file),
                    store=self.store, queue=queue, project=project)
        run = Run(args, folder, seed=os.environ.get('ZAQAR_DELAY_KILL9_SEED',
                                                    uuid.uuid4().hex))
        prefilled = self.prefill(data, queue, project)
        run.go(KILLS)
        came = self.drain(data, queue, project, time.time() + HIDDEN_AT_MOST)
        got = tally(run.events())
        got.posted.update(prefilled)

        twice = sorted(mid for mid, n in came.items() if n > 1)
        undeleted = sorted(got.deleted & set(came))
        missing = sorted(got.posted - got.deleting - set(came))
        hidden = [mid for mid in missing if self._exists(
            data, queue, mid, project)]
        report = ('%d kills, %d acknowledged posts, %d deletes sent, %d '
                  'came back; twice: %s; deleted but back: %s; hidden: %s; '
                  'missing: %s; unreplied pops could take %d (logs in %s)'
                  % (run.kills, len(got.posted), len(got.deleting),
                     len(came), twice, undeleted, hidden, missing,
                     got.unreplied_pops, folder))
        for mid in hidden:
            report += '\n%s at %.3f: %s' % (
                mid, time.time(), self.describe(data, queue, mid, project))
        print(report)
        self.assertGreaterEqual(run.kills, KILLS)
        self.assertGreater(len(got.posted), 0, report)
        self.assertEqual([], twice, report)
        self.assertEqual([], undeleted, report)
        self.assertEqual([], hidden, report)
        self.assertLessEqual(len(missing), got.unreplied_pops, report)

    @staticmethod
    def _exists(data, queue, mid, project):
        try:
            data.message_controller.get(queue, mid, project)
        except errors.MessageDoesNotExist:
            return False
        return True
