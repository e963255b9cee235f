"""Compare ``mongodb`` (upstream) and ``mongodb.delay`` on one server.

    python benchmarks/mongodb_delay.py [--sizes 0,10000,100000] [--url URL]

The server is ``--url`` (or ZAQAR_DELAY_TEST_MONGODB_URL), else a
secantusdb started here. Each driver has its own databases on it. Prints
the median wall time of a claim (limit 1) and of a list page (limit 10)
that must find one ready message behind N delayed ones, and the index
keys and documents the server examined for that claim's query
(``explain``, executionStats), for each driver.
"""

import argparse
import os
import sys

from oslo_utils import timeutils
from zaqar.storage.mongodb import driver as upstream
from zaqar.storage.mongodb import messages as upstream_messages

from benchmarks import common
from tests.functional import services
from zaqar_delay.storage.mongodb import driver as delay_driver
from zaqar_delay.storage.mongodb import messages as delay_messages

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
    else:
        query = {'p_q': scope, 's': delay_messages.READY, 'tx': None}
        hint = delay_messages.STATE_INDEX
    stats = coll.find(query, sort=[('k', 1)]).limit(1).hint(
        hint).explain().get('executionStats', {})
    data.message_controller.delete(queue, mid, PROJECT)
    return stats.get('totalKeysExamined'), stats.get('totalDocsExamined')


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='0,10000,100000')
    parser.add_argument('--repeats', type=int, default=11)
    parser.add_argument('--budget', type=float, default=20.0,
                        help='seconds of claims per cell at most')
    parser.add_argument('--url', help='MongoDB server to use')
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
          'keys/docs examined by the claim query')
    print('%8s %-14s %10s %10s %14s' % (
        'N ahead', 'driver', 'claim ms', 'list ms', 'keys/docs'))
    ahead = 0
    for size in [int(s) for s in args.sizes.split(',')]:
        for name, (_, data) in drivers_.items():
            common.post_delayed(data, 'claims', size - ahead)
            claim = common.claim_ms(data, 'claims', args.repeats,
                                    args.budget)
            page = common.list_ms(data, 'claims', args.repeats, args.budget)
            keys, docs = examined(name, data, 'claims')
            print('%8d %-14s %10.2f %10.2f %14s' % (
                size, name, claim[0], page[0], '%s/%s' % (keys, docs)))
            sys.stdout.flush()
        ahead = size
    for _, data in drivers_.values():
        for db in data.message_databases:
            data.connection.drop_database(db)


if __name__ == '__main__':
    main()
