"""Compare ``mongodb`` (upstream) and ``mongodb.delay`` on one server.

    python benchmarks/mongodb_delay.py [--sizes 0,10000,50000] [--url URL]

The server is ``--url`` (or ZAQAR_DELAY_TEST_MONGODB_URL), else a
secantusdb started here. Each driver has its own databases on it. Prints
the median wall time of a claim (limit 1) and of a list page (limit 10)
that must find one ready message behind N delayed ones, the index keys
and documents the server examined for that claim's query (``explain``,
executionStats), each time's ratio to the same driver's with none ahead,
and upstream's time over ours. After filling a queue it waits
``--settle`` seconds (measured: secantusdb answers every query several
times slower for about 10 s after a bulk insert of 50,000 documents).
Then six claimer threads (claim 10, delete each) on 1,500 messages with
delays of 0-2 s, per driver: the seconds until every message was
delivered (or the deadline), and the messages delivered early, twice or
never.
"""

import argparse
import os
import sys
import time

from oslo_utils import timeutils
from zaqar.storage.mongodb import driver as upstream
from zaqar.storage.mongodb import messages as upstream_messages

from benchmarks import common
from tests.fixtures import services
from zaqar_delay.storage.mongodb import driver as delay_driver
from zaqar_delay.storage.mongodb import queries

CONF = """
[DEFAULT]
unreliable = True
[drivers:message_store:mongodb]
uri = {url}
database = {db}
[drivers:management_store:mongodb]
uri = {url}
database = {db}_mgmt
[transport]
max_message_delay = 604800
"""
PROJECT = common.PROJECT


def examined(name, data, queue):
    """(keys, docs) the server examines for the driver's claim query,
    with one ready message behind the delayed ones."""
    (mid,) = data.message_controller.post(
        queue, [{'ttl': 600, 'body': 'ready', 'delay': 0}], common.CLIENT,
        PROJECT)
    coll = data.message_controller._collection(queue, PROJECT)
    scope = '%s/%s' % (PROJECT, queue)
    now = timeutils.utcnow_ts()
    if name == 'mongodb':
        query = {'p_q': scope, 'tx': None, 'c.e': {'$lte': now},
                 '$or': [{'d': {'$lte': now}}, {'d': {'$exists': False}}]}
        hint = upstream_messages.ACTIVE_INDEX_FIELDS
        cursor = coll.find(query, sort=[('k', 1)]).limit(1).hint(hint)
    else:
        cursor = queries.find(coll, queries.in_state(scope, queries.READY),
                              limit=1)
    stats = cursor.explain().get('executionStats', {})
    data.message_controller.delete(queue, mid, PROJECT)
    return stats.get('totalKeysExamined'), stats.get('totalDocsExamined')


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='0,10000,50000')
    parser.add_argument('--repeats', type=int, default=11)
    parser.add_argument('--budget', type=float, default=20.0,
                        help='seconds of claims per cell at most')
    parser.add_argument('--url', help='MongoDB server to use')
    parser.add_argument('--settle', type=float, default=15.0,
                        help='seconds to wait after filling a queue: the '
                        'test server answers every query several times '
                        'slower for about 10 s after a bulk insert')
    parser.add_argument('--claimers', type=int, default=6)
    parser.add_argument('--messages', type=int, default=1500)
    parser.add_argument('--deadline', type=float, default=120.0,
                        help='seconds the claimers have at most')
    args = parser.parse_args(argv)
    if args.url:
        os.environ['ZAQAR_DELAY_TEST_MONGODB_URL'] = args.url
    server = services.mongo_server()
    print('MongoDB server %s on %s' % (server.version, server.url))

    drivers_ = {
        name: common.make_driver(cls, upstream.ControlDriver, CONF.format(
            url=server.url, db=db))
        for name, cls, db in (('mongodb', upstream.DataDriver, 'bench_up'),
                              ('mongodb.delay', delay_driver.DataDriver,
                               'bench_delay'))}
    for control, _ in drivers_.values():
        control.queue_controller.create('claims', project=PROJECT)
        control.queue_controller.set_metadata(
            'claims', {'_default_message_delay': 3600}, project=PROJECT)

    print('\nper claim (limit 1) and list page (limit 10), median ms; '
          'keys/docs examined by the claim query; x0: the time over the '
          'same driver\'s with none ahead; up/ours: upstream\'s time over '
          'ours')
    print('%8s %-14s %9s %6s %9s %6s %12s %9s %9s' % (
        'N ahead', 'driver', 'claim ms', 'x0', 'list ms', 'x0',
        'keys/docs', 'up/ours', 'up/ours'))
    ahead, base = 0, {}
    for size in [int(s) for s in args.sizes.split(',')]:
        # Fill both queues, let the server settle once, then time ours
        # first: upstream's claims scan the delayed messages.
        if size > ahead:
            for _, data in drivers_.values():
                common.post_delayed(data, 'claims', size - ahead)
            time.sleep(args.settle)
        rows = {}
        for name in reversed(list(drivers_)):
            data = drivers_[name][1]
            claim = common.claim_ms(data, 'claims', args.repeats,
                                    args.budget)[0]
            page = common.list_ms(data, 'claims', args.repeats,
                                  args.budget)[0]
            rows[name] = (claim, page) + examined(name, data, 'claims')
            base.setdefault(name, (claim, page))
        for name, (claim, page, keys, docs) in rows.items():
            vs_up = ('%9.1f %9.1f' % (rows['mongodb'][0] / claim,
                                      rows['mongodb'][1] / page)
                     if name != 'mongodb' else '%9s %9s' % ('', ''))
            print('%8d %-14s %9.2f %6.2f %9.2f %6.2f %12s %s' % (
                size, name, claim, claim / base[name][0], page,
                page / base[name][1], '%s/%s' % (keys, docs), vs_up))
        sys.stdout.flush()
        ahead = size

    print('\n%d claimers (claim 10, delete each), %d messages with delays '
          'of 0-2 s, on a fresh queue' % (args.claimers, args.messages))
    print('%-14s %10s %10s %7s %7s %6s' % (
        'driver', 'seconds', 'delivered', 'early', 'double', 'lost'))
    for name, (control, data) in drivers_.items():
        queue = 'parallel'
        control.queue_controller.create(queue, project=PROJECT)
        found = common.parallel_claimers(
            data, queue, args.messages, args.claimers, args.deadline)
        print('%-14s %10.1f %10d %7d %7d %6d' % ((name,) + found))
        sys.stdout.flush()
    for _, data in drivers_.values():
        for db in data.message_databases:
            data.connection.drop_database(db)


if __name__ == '__main__':
    main()
