"""Schedules through a real zaqar-server and real dispatchers, written
once for every store.

Each test defines a queue's ``_schedules`` with python-zaqarclient, runs
``zaqar-delay-dispatcher`` processes against the server's store, stops
them (SIGTERM: each ends its pass first) and only then reads what was
posted. Waits are for a condition (a tick posted), with a timeout as
failure; the assertions compare the posted ticks with the ticks the
schedule has between recorded instants and with the schedule's own
``last_tick`` (``zaqar-delay-manage schedules``), so they do not depend
on when a pass ran.
"""

import datetime
import json
import os
import signal
import subprocess
import sys
import time
import uuid

from zaqarclient.queues import client

from tests.fixtures import logs
from tests.fixtures import zaqar_server
from zaqar_delay import pending
from zaqar_delay.schedules import ticks as ticks_rules

EVERY = 2
LEASE = 10          # [delay_push] lease: a killed pass's queue waits this
DOWN = 12           # seconds every dispatcher is down, above LEASE


def _bin(name):
    return os.path.join(os.path.dirname(sys.executable), name)


def _second(text):
    return int(datetime.datetime.strptime(text, '%Y-%m-%dT%H:%M:%SZ')
               .replace(tzinfo=datetime.timezone.utc).timestamp())


class ScheduleBase(zaqar_server.StoreServer):
    store = 'redis.delay'
    project = 'p.1:sched'
    in_server = False   # a dispatcher in the zaqar-server too

    def setUp(self):
        super().setUp()
        options = {'storage': {'message_pipeline': pending.STAGE},
                   'delay_push': {'dispatch_in_server': self.in_server,
                                  'lease': LEASE, 'poll_interval': 0.5}}
        self.stack = self.start_server(options=options)
        self.addCleanup(self.stack.cleanup)
        # A failure shows the tails of the server's and the
        # dispatchers' logs (INFO: passes that outlived their lease).
        self.logs = {'zaqar.log': self.stack.log_path}
        logs.on_failure(self, lambda: dict(self.logs))
        self.cli = client.Client(self.stack.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': self.project}}})
        # python-zaqarclient refuses dots in queue names (the HTTP tests
        # in test_metadata use them).
        self.name = 'sched-q-' + uuid.uuid4().hex[:8]
        self.queue = self.cli.queue(self.name, force_create=True)

    def define(self, *schedules):
        self.queue.metadata(new_meta={'_schedules': list(schedules)})

    def dispatchers(self, count=3):
        procs = []
        for _ in range(count):
            name = 'dispatcher-%d.log' % (len(self.logs) - 1)
            self.logs[name] = os.path.join(self.stack.dir, name)
            with open(self.logs[name], 'ab') as out:
                proc = subprocess.Popen(
                    [_bin('zaqar-delay-dispatcher'), '--config-file',
                     self.stack.conf],
                    stdout=out, stderr=subprocess.STDOUT)
            self.addCleanup(lambda p=proc: p.poll() is None and p.kill())
            procs.append(proc)
        return procs

    def stop(self, procs, signum=signal.SIGTERM):
        for proc in procs:
            proc.send_signal(signum)
        for proc in procs:
            proc.wait(timeout=60)

    def ticks(self):
        """The tick (unix seconds) of every message posted, in order."""
        found = [_second(message.body['tick']) for message in
                 self.queue.messages(echo=True, include_claimed=True,
                                     limit=20).stream()]
        return sorted(found)

    def wait_for_tick(self, at_least, timeout=90):
        """Wait until a tick >= ``at_least`` is posted."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.ticks()
            if found and found[-1] >= at_least:
                return found
            time.sleep(0.5)
        self.fail('no tick at or after %d in %d s (ticks: %s)' % (
            at_least, timeout, self.ticks()))

    def listed(self):
        """``zaqar-delay-manage schedules QUEUE``: {name: row} ({} when
        it fails saying that the queue has none)."""
        done = subprocess.run(
            [_bin('zaqar-delay-manage'), '--config-file', self.stack.conf,
             'schedules', self.name, '--project', self.project],
            capture_output=True, text=True, timeout=60)
        if done.returncode == 1 and 'has no schedules' in done.stderr:
            return {}
        done.check_returncode()
        return {row['schedule']: row for row in map(json.loads,
                                                    done.stdout.splitlines())}

    def assert_contiguous(self, found, every=EVERY):
        self.assertEqual(sorted(set(found)), found, 'a tick posted twice')
        self.assertEqual(list(range(found[0], found[-1] + 1, every)), found)


class InServerTests(ScheduleBase):
    in_server = True

    def test_the_in_server_dispatcher_posts_the_ticks(self):
        self.define({'name': 'inside', 'every': EVERY, 'body': 1})
        first = self.wait_for_tick(0)[0]
        found = self.wait_for_tick(first + 3 * EVERY)
        self.assert_contiguous(found)
        self.assertLessEqual(
            found[-1], _second(self.listed()['inside']['last_tick']))


class ScheduleTests(ScheduleBase):

    def test_three_dispatchers_post_each_tick_once(self):
        # Ticks are whole seconds, the first at or after the second the
        # schedule is set in (schedules/ticks.py).
        started = int(time.time())
        self.define({'name': 'race', 'every': EVERY, 'body': {'n': 1}})
        procs = self.dispatchers(3)
        first = self.wait_for_tick(0)[0]
        self.wait_for_tick(first + 20)
        self.stop(procs)
        ended = time.time()
        found = self.ticks()
        self.assertGreaterEqual(first, started)
        self.assertLessEqual(found[-1], ended)
        self.assert_contiguous(found)
        # Every tick from the first to the schedule's last, exactly once.
        last = _second(self.listed()['race']['last_tick'])
        self.assertEqual(list(range(first, last + 1, EVERY)), found)
        self.assertGreaterEqual(len(found), 11)
        body = next(iter(self.queue.messages(echo=True))).body
        self.assertEqual({'n': 1}, body['body'])
        self.assertEqual('race', body['schedule'])

    def outage(self, catch_up):
        """Ticks before a kill -9 of every dispatcher, the kill and
        restart times, and every tick at the end."""
        self.define({'name': 'down', 'every': EVERY, 'body': 'x',
                     'catch_up': catch_up})
        procs = self.dispatchers(3)
        self.wait_for_tick(self.wait_for_tick(0)[0] + 4)
        self.stop(procs, signal.SIGKILL)
        killed = time.time()
        before = self.ticks()
        time.sleep(DOWN)
        restarted = time.time()
        procs = self.dispatchers(3)
        self.wait_for_tick(int(restarted) + 6)
        self.stop(procs)
        found = self.ticks()
        self.assertEqual(sorted(set(found)), found, 'a tick posted twice')
        self.assertLessEqual(before[-1], killed)
        self.assert_contiguous(before)
        after = [tick for tick in found if tick > before[-1]]
        return before, after, restarted

    def test_outage_catch_up_none(self):
        before, after, restarted = self.outage('none')
        # Ticks older than LATE at the first pass are skipped.
        self.assertEqual([], [tick for tick in after if tick <
                              int(restarted) - ticks_rules.LATE])
        self.assertGreater(after[0] - before[-1], EVERY)    # skipped
        self.assert_contiguous(after)

    def test_outage_catch_up_latest(self):
        before, after, restarted = self.outage('latest')
        # Nothing from the middle of the outage: the first pass posts
        # the ticks on time (at most LATE old), or else the latest.
        self.assertEqual([], [tick for tick in after if tick <
                              int(restarted) - ticks_rules.LATE])
        self.assertGreater(after[0] - before[-1], EVERY)    # skipped
        self.assert_contiguous(after)

    def test_outage_catch_up_all(self):
        before, after, restarted = self.outage('all')
        # Every tick missed is posted, once.
        self.assert_contiguous(before + after)
        self.assertLess(after[0], restarted - DOWN + EVERY + 1)

    def test_a_changed_then_removed_schedule(self):
        self.define({'name': 'c', 'every': EVERY, 'body': 1})
        procs = self.dispatchers(2)
        self.wait_for_tick(self.wait_for_tick(0)[0] + 2 * EVERY)
        self.assertIn('next_tick', self.queue.stats)
        changed = time.time()
        self.define({'name': 'c', 'every': 3, 'body': 2})
        self.wait_for_tick(int(changed) + 9)
        removed = time.time()
        self.queue.metadata(new_meta={'kept': 1})
        deadline = time.monotonic() + 60
        while 'next_tick' in self.queue.stats:  # left the index
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.5)
        left = time.time()
        self.stop(procs)
        found = self.ticks()
        self.assertEqual(sorted(set(found)), found)
        old = [tick for tick in found if tick <= changed]
        new = [tick for tick in found if tick > changed + 2]
        self.assert_contiguous(old)
        self.assert_contiguous(new, every=3)
        self.assertGreaterEqual(len(new), 3)
        self.assertLessEqual(found[-1], removed)
        self.assertEqual({}, self.listed())
        self.assertGreater(left, removed)
