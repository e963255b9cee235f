"""A worker process of the kill -9 test (``tests/common/kill9.py``).

Run as ``python -m tests.common.kill9_worker JSON``, the JSON naming the
Zaqar conf file, the store, the queue, the project, the log file, a
seed and (for MongoDB) the database. It builds its own drivers and does
posts, claims, deletes with and without a claim, releases, renewals
and pops at random until it is killed, writing one JSON line to its log
before it sends a delete and after each reply it acknowledges.
"""

import json
import os
import random
import sys
import time
import uuid

from oslo_config import cfg
from oslo_log import log
from osprofiler import opts as profiler_opts
from zaqar.conf import default
from zaqar.conf import drivers as driver_opts
from zaqar.conf import notification
from zaqar.conf import profiler
from zaqar.conf import signed_url
from zaqar.storage import errors

DELAYS = (0, 0, 1, 2, 3)
CLAIM_TTLS = (2, 3, 4)
GRACES = (0, 1, 2)
TTL = 3600


def load_conf(path):
    """A Zaqar conf as Zaqar's test base loads it."""
    conf = cfg.ConfigOpts()
    log.register_options(conf)
    conf(args=[], default_config_files=[path])
    conf.register_opts(default.ALL_OPTS)
    conf.register_opts(driver_opts.ALL_OPTS, group=driver_opts.GROUP_NAME)
    conf.register_opts(notification.ALL_OPTS, group=notification.GROUP_NAME)
    conf.register_opts(signed_url.ALL_OPTS, group=signed_url.GROUP_NAME)
    profiler_opts.set_defaults(conf)
    conf.register_opts(profiler.ALL_OPTS, group=profiler.GROUP_NAME)
    return conf


def data_driver(args):
    """The data driver of the store that ``args`` names."""
    conf = load_conf(args['conf'])
    if args['store'] == 'swift.delay':
        from tests.fixtures import swift_store
        return swift_store.drivers(conf)[1]
    if args['store'] == 'redis.delay':
        from tests.fixtures import redis_store
        return redis_store.drivers(conf)[1]
    from zaqar.conf import drivers_message_store_mongodb as message_opts
    from zaqar.storage.mongodb import driver as upstream_driver

    from tests.fixtures import storage
    from zaqar_delay.storage.mongodb import driver as delay_driver
    conf.register_opts(message_opts.ALL_OPTS, group=message_opts.GROUP_NAME)
    conf.set_override('database', args['database'],
                      group=message_opts.GROUP_NAME)
    return storage.drivers(conf, upstream_driver.ControlDriver,
                           delay_driver.DataDriver)[1]


class Worker:

    def __init__(self, args):
        self.queue, self.project = args['queue'], args['project']
        self.rnd = random.Random(args['seed'])
        self.fd = os.open(args['log'],
                          os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        data = data_driver(args)
        self.msgs, self.claims = data.message_controller, data.claim_controller
        self.posted = []

    def note(self, **event):
        # One write of one line, O_APPEND: whole lines even when killed.
        event['t'] = round(time.time(), 3)
        os.write(self.fd, (json.dumps(event) + '\n').encode())

    def run(self):
        # Connected (Swift: authenticated) before it counts as started.
        next(self.msgs.list(self.queue, self.project, limit=1))
        self.note(event='ready')
        ops = ([self.post] * 7 + [self.claim] * 8 + [self.delete] * 2
               + [self.pop] * 3)
        while True:
            try:
                self.rnd.choice(ops)()
            except errors.ExceptionBase:
                pass    # refused: a claim that ended, one that holds it

    def post(self):
        batch = [{'ttl': TTL, 'body': uuid.uuid4().hex,
                  'delay': self.rnd.choice(DELAYS)}
                 for _ in range(self.rnd.randint(1, 3))]
        ids = self.msgs.post(self.queue, batch, str(uuid.uuid4()),
                             self.project)
        self.posted.extend(ids)
        self.note(event='posted', ids=list(ids))

    def claim(self):
        meta = {'ttl': self.rnd.choice(CLAIM_TTLS),
                'grace': self.rnd.choice(GRACES)}
        cid, got = self.claims.create(self.queue, meta, self.project,
                                      limit=self.rnd.randint(1, 5))
        if not cid:
            return
        ids = [msg['id'] for msg in got]
        self.note(event='claimed', claim=cid, ids=ids)
        then = self.rnd.random()
        if then < 0.2:
            meta = {'ttl': self.rnd.choice(CLAIM_TTLS),
                    'grace': self.rnd.choice(GRACES)}
            self.claims.update(self.queue, cid, meta, self.project)
            self.note(event='renewed', claim=cid)
            then = self.rnd.random()
        if then < 0.4:
            self.claims.delete(self.queue, cid, self.project)
            self.note(event='released', claim=cid)
        elif then < 0.85:
            for mid in ids:
                self.note(event='deleting', ids=[mid])
                self.msgs.delete(self.queue, mid, self.project, claim=cid)
                self.note(event='deleted', ids=[mid])
        # else: left to end by itself

    def delete(self):
        if not self.posted:
            return
        mid = self.rnd.choice(self.posted)
        self.note(event='deleting', ids=[mid])
        self.msgs.delete(self.queue, mid, self.project)
        self.note(event='deleted', ids=[mid])

    def pop(self):
        limit = self.rnd.randint(1, 3)
        token = uuid.uuid4().hex
        self.note(event='popping', token=token, limit=limit)
        got = self.msgs.pop(self.queue, limit, self.project)
        self.note(event='popped', token=token,
                  ids=[msg['id'] for msg in got])


if __name__ == '__main__':
    Worker(json.loads(sys.argv[1])).run()
