"""doc/source/pipeline.rst's examples run as printed (Spark: tox -e slow).

The page's commands run in order in one folder, against the class's
zaqar-delay-server (test_examples.py's substitutions), and read the
files that the page names as there already: ``deliveries.parquet``,
what a user schedules (40 rows for ``reminders`` and the five bad rows
the page's run rejects), and a queue of project ``tenant.a`` with
``_history_ttl`` and some history, which ``export --history`` reads.
"""

import glob
import json
import os
import subprocess
import sys
import time

from zaqarclient.queues import client

from tests.functional.docs import test_examples

GOOD = 40
# Rows the job rejects: three it finds invalid, two the server refuses
# (a ttl shorter than the delay; a delay above max_message_delay).
BAD = [{'queue': 'bad name!', 'body': '{"user": 0}'},
       {'queue': 'reminders', 'body': None, 'delay': 60},
       {'queue': 'reminders', 'body': '{"user": 0}', 'delay': 60,
        'deliver_at': '2030-01-01T00:00:00Z'},
       {'queue': 'reminders', 'body': '{"user": 0}', 'ttl': 60,
        'delay': 600},
       {'queue': 'reminders', 'body': '{"user": 0}', 'delay': 7200}]

# Writes the JSON lines argv[1] as the Parquet folder argv[2], with the
# column types a Parquet export from another system would have.
_TO_PARQUET = '''
import sys
from pyspark.sql import types as T
from zaqar_delay.pipeline import writing
text, whole = T.StringType(), T.LongType()
writing.json_to_parquet([sys.argv[1]], sys.argv[2], T.StructType([
    T.StructField('queue', text), T.StructField('body', text),
    T.StructField('ttl', whole), T.StructField('delay', whole),
    T.StructField('deliver_at', text)]))
'''


def deliveries(now):
    """The rows of deliveries.parquet: half with a delay, half with a
    ``deliver_at``, all due in 30 to 60 minutes (after the test), then
    BAD."""
    rows = []
    for i in range(GOOD):
        row = {'queue': 'reminders', 'ttl': 7200,
               'body': json.dumps({'user': i, 'remind': 'renewal'})}
        if i % 2:
            row['delay'] = 1800 + 30 * i
        else:
            row['deliver_at'] = time.strftime(
                '%Y-%m-%dT%H:%M:%SZ', time.gmtime(now + 1800 + 30 * i))
        rows.append(row)
    return rows + BAD


class PipelineExamplesTest(test_examples._Examples):
    """pipeline.rst: the schedule job, the exports and the audits, each
    a command starting its own Spark driver."""

    timeout = 600

    @classmethod
    def wanted(cls, example):
        return test_examples.needs_spark(example)

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        jsonl = os.path.join(cls.dir, 'deliveries.jsonl')
        with open(jsonl, 'w') as f:
            for row in deliveries(time.time()):
                f.write(json.dumps(row) + '\n')
        subprocess.run([sys.executable, '-c', _TO_PARQUET, jsonl,
                        os.path.join(cls.dir, 'deliveries.parquet')],
                       check=True, capture_output=True, timeout=cls.timeout)
        os.unlink(jsonl)
        cli = client.Client(cls.stack.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': 'tenant.a'}}})
        queue = cli.queue('orders-eu', force_create=True)
        queue.metadata(new_meta={'_history_ttl': 86400})
        queue.post([{'body': {'order': i}, 'ttl': 3600} for i in range(5)])
        for message in queue.claim(ttl=60, grace=60, limit=3):
            message.delete()

    def after_pipeline(self):
        stats = test_examples.queue_metadata(
            self.stack.url, 'demo', 'reminders/stats')['messages']
        self.assertEqual((GOOD, GOOD), (stats['delayed'], stats['total']),
                         stats)
        runs = glob.glob(os.path.join(self.dir, 'rejects', 'run=*'))
        self.assertEqual(1, len(runs), runs)
        rejected = []
        for path in glob.glob(os.path.join(runs[0], '*.json')):
            with open(path) as f:
                rejected.extend(json.loads(line) for line in f)
        self.assertEqual(len(BAD), len(rejected), rejected)
        with open(os.path.join(self.dir, 'snapshot.jsonl')) as f:
            self.assertEqual(GOOD, len(f.readlines()))
        with open(os.path.join(self.dir, 'report',
                               'history_summary.txt')) as f:
            self.assertIn('5 messages posted in 1 queues: 3 delivered',
                          f.read())


test_examples._page_tests(PipelineExamplesTest, test_examples.PAGES)
