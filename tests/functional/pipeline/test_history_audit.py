"""post -> claim -> release -> claim -> delete with history on, then
``zaqar-delay-manage export --history`` and ``zaqar-delay-audit
--history``, on a real zaqar-server with ``redis.delay``; and history,
replay and export in a pooled deployment (MongoDB catalog, a redis.delay
pool), the pool found through the catalog.

The audit's figures are checked against the events ``zaqar-delay-manage
history`` shows, worked out here: each message's first claim minus its
due time, nearest-rank percentiles. Waits are real and short (1 s
delays, a 1 s backoff).
"""

import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

import testtools

from tests.common import history
from tests.fixtures import zaqar_server
from zaqar_delay.cmd import manage

PROJECT = 'tenant.a'


def _command(name):
    return os.path.join(os.path.dirname(sys.executable), name)


def nearest_rank(values, p):
    ordered = sorted(values)
    return ordered[math.ceil(p * len(ordered)) - 1]


class HistoryAuditBase(history.HistoryClient, testtools.TestCase):

    project = PROJECT

    def setUp(self):
        super().setUp()
        self.dir = tempfile.mkdtemp(prefix='zaqar-delay-history-audit-')
        self.addCleanup(shutil.rmtree, self.dir, True)

    def start(self, **options):
        self.stack = zaqar_server.ZaqarServer(max_delay=3600,
                                              **options).start()
        self.addCleanup(self.stack.cleanup)
        self.connect()

    def run_command(self, *argv):
        proc = subprocess.run([_command(argv[0])] + list(argv[1:]),
                              capture_output=True, text=True, timeout=300)
        self.assertEqual(0, proc.returncode, proc.stderr[-3000:])
        return proc.stdout

    def traffic(self, name):
        """Four messages on a delayed queue keeping history: one
        claimed, released and claimed again before its delete, two
        claimed once and deleted, one never due within the test."""
        queue = self.dotted(name, _history_ttl=3600,
                            _default_message_delay=3600,
                            _retry_backoff={'initial': 1})
        queue.post([{'body': {'n': 1}, 'ttl': 300, 'delay': 1}])
        claim, _ = self.claim_soon(queue)
        claim.delete()                                  # released
        _, message = self.claim_soon(queue)
        message.delete()
        queue.post([{'body': {'n': 2}, 'ttl': 300, 'delay': 1},
                    {'body': {'n': 3}, 'ttl': 300, 'delay': 0}])
        for _ in range(2):
            _, message = self.claim_soon(queue)
            message.delete()
        queue.post([{'body': {'n': 4}, 'ttl': 3600, 'delay': 3000}])
        return queue


class HistoryAuditTest(HistoryAuditBase):

    def test_export_history_and_audit_true_lateness(self):
        self.start()
        name = 'orders.eu.' + uuid.uuid4().hex[:8]
        self.traffic(name)
        self.dotted(name + '.plain').post([{'body': 'x', 'ttl': 300}])

        # What the audit must say, from the events themselves.
        found = self.history(name)
        due = {e['message_id']: float(e['due']) for e in found
               if e['kind'] == 'posted'}
        claims = {}
        for e in found:
            if e['kind'] == 'claimed':
                claims.setdefault(e['message_id'], []).append(e['at'])
        self.assertEqual(4, len(due))
        self.assertEqual([1, 1, 2], sorted(map(len, claims.values())))
        # Claims' events are timed to the second they happened in.
        late = [min(at) - math.floor(due[mid]) for mid, at in claims.items()]
        self.assertTrue(all(x >= 0 for x in late), late)

        exported = os.path.join(self.dir, 'history.jsonl')
        self.manage('export', '--history', '--output', exported)
        records = [json.loads(line) for line in open(exported)]
        self.assertEqual(len(found), len(records))
        self.assertEqual({name}, {r['queue'] for r in records})
        parquet = os.path.join(self.dir, 'history.parquet')
        self.run_command('zaqar-delay-manage', '--config-file',
                         self.stack.conf, 'export', '--history',
                         '--project', PROJECT, '--queue', name,
                         '--output', parquet)
        self.assertTrue(any(f.endswith('.parquet')
                            for f in os.listdir(parquet)))

        snapshot = os.path.join(self.dir, 'snapshot.jsonl')
        self.manage('export', '--output', snapshot)
        texts = []
        for inputs in ([snapshot, '--history', exported],
                       ['--history', parquet]):
            report = os.path.join(self.dir, 'report-%d' % len(texts))
            texts.append(self.run_command(
                'zaqar-delay-audit', *inputs, '--out', report,
                '--master', 'local[1]'))
            with open(os.path.join(report, 'lateness_over_time.png'),
                      'rb') as png:
                self.assertEqual(b'\x89PNG', png.read(4))
        # The snapshot's view, then the history's: the same from JSON
        # lines as from Parquet.
        both, text = texts
        self.assertTrue(both.startswith('delay audit of a snapshot'), both)
        self.assertIn('2 messages in 2 queues: 1 delayed, 0 claimed', both)
        self.assertTrue(both.endswith('\n' + text), both)
        self.assertTrue(os.path.exists(os.path.join(self.dir, 'report-0',
                                                    'forecast.png')))
        self.assertIn('4 messages posted in 1 queues: 3 delivered', text)
        self.assertIn('delivered before due: 0', text)
        self.assertIn('claims: 4 on 3 messages, 1 claimed more than once',
                      text)
        row, = [line.split() for line in text.splitlines()
                if line.startswith(PROJECT + '/' + name)]
        self.assertEqual(
            ['4', '3', '0'] + ['%.1fs' % v for v in (
                nearest_rank(late, 0.5), nearest_rank(late, 0.9),
                nearest_rank(late, 0.99), max(late))] + ['1.33', '1'],
            row[1:])


class PooledHistoryTest(HistoryAuditBase):

    def test_history_replay_and_export_find_the_pool(self):
        self.start(options=zaqar_server.pooled_catalog())
        store = self.stack.sections('wsgi', self.stack.port)[
            'drivers:message_store:redis']
        rest = store['uri'].split('://', 1)[1]
        reply = zaqar_server.add_pool(
            self.stack.url, 'one', 'redis.delay://' + rest,
            {k: v for k, v in store.items() if k != 'uri'})
        self.assertEqual(201, reply.status_code, reply.text)
        name = 'pooled.q.' + uuid.uuid4().hex[:8]
        since = int(time.time()) - 1
        self.traffic(name)
        until = int(time.time()) + 1

        kinds = [e['kind'] for e in self.history(name)]
        self.assertEqual(4, kinds.count('posted'))
        self.assertEqual(4, kinds.count('claimed'))
        self.assertEqual(1, kinds.count('released'))
        self.assertEqual(3, kinds.count('deleted'))

        exported = os.path.join(self.dir, 'history.jsonl')
        self.manage('export', '--history', '--output', exported)
        self.assertEqual(len(kinds), len(open(exported).readlines()))

        target = self.dotted(name + '.again')
        argv = ('replay', name, '--since', str(since), '--until',
                str(until), '--to', target.name, '--delay', '0')
        first = self.manage(*argv)
        self.assertEqual(4, len(first))
        again = self.manage(*argv)
        self.assertTrue(all('already posted as' in line for line in again))
        self.assertEqual(sorted(m.body['n'] for m in
                                target.messages(echo=True)), [1, 2, 3, 4])

        # A queue no pool holds is an error that says so.
        out = io.StringIO()
        self.assertEqual(1, manage.main(
            ['--config-file', self.stack.conf, 'history', 'nowhere',
             '--project', PROJECT], out=out))
