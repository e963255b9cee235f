"""Message history on ``mongodb.delay``: what it costs, off and on.

    python -m benchmarks.history_mongodb [--rounds 5] [--seconds 2]
        [--url URL]

The server is ``--url`` (or ZAQAR_DELAY_TEST_MONGODB_URL), else a
secantusdb started here. Three drivers' queues, in turn in each round,
one process: upstream's ``mongodb``, ``mongodb.delay`` on a queue
without ``_history_ttl`` (off) and on one with it (on). Each posts 10
messages a call for ``--seconds``, then claims 10 and deletes each with
its claim until all are gone. Prints the median rates over the rounds
and the ratios off / upstream and on / off; and the size of a message's
document (``bson.encode`` of the documents read back, as MongoDB's
``Object.bsonsize`` counts it): live just after its post, and kept
after its delete with history on (posted, claimed, deleted). Index
entries are not counted.
"""

import argparse
import os
import statistics
import time

import bson
from zaqar.storage.mongodb import driver as upstream

from benchmarks import common
from benchmarks import mongodb_delay
from tests.fixtures import services
from zaqar_delay.storage.mongodb import driver as delay_driver
from zaqar_delay.storage.mongodb import queries

PROJECT = common.PROJECT
MODES = ('mongodb', 'off', 'on')


def claim_delete_rate(data, queue):
    """Messages claimed (10 a claim) and deleted a second, until none."""
    done, started = 0, time.perf_counter()
    while True:
        claim_id, messages = data.claim_controller.create(
            queue, {'ttl': 60, 'grace': 60}, PROJECT, limit=10)
        messages = list(messages)
        if not messages:
            return done / (time.perf_counter() - started)
        for msg in messages:
            data.message_controller.delete(queue, msg['id'], PROJECT,
                                           claim=claim_id)
        done += len(messages)


def sizes(data, queue):
    """(mean bytes of a live document, of a processed one, how many
    processed) of the queue."""
    collection = data.message_controller.collection(queue, PROJECT)
    docs = list(collection.find({'p_q': '%s/%s' % (PROJECT, queue)}))
    live = [len(bson.encode(d)) for d in docs
            if d.get('s') != queries.PROCESSED]
    kept = [len(bson.encode(d)) for d in docs
            if d.get('s') == queries.PROCESSED]
    return (statistics.mean(live) if live else 0,
            statistics.mean(kept) if kept else 0, len(kept))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--seconds', type=float, default=2.0)
    parser.add_argument('--url', help='MongoDB server to use')
    args = parser.parse_args(argv)
    if args.url:
        os.environ['ZAQAR_DELAY_TEST_MONGODB_URL'] = args.url
    server = services.mongo_server()
    print('MongoDB server %s on %s' % (server.version, server.url))
    conf = mongodb_delay.CONF
    drivers_ = {
        'mongodb': common.make_driver(
            upstream.DataDriver, upstream.ControlDriver,
            conf.format(url=server.url, db='hist_up')),
        'delay': common.make_driver(
            delay_driver.DataDriver, upstream.ControlDriver,
            conf.format(url=server.url, db='hist_delay'))}
    data = {'mongodb': drivers_['mongodb'][1], 'off': drivers_['delay'][1],
            'on': drivers_['delay'][1]}
    for mode in MODES:
        control = drivers_['mongodb' if mode == 'mongodb' else 'delay'][0]
        control.queue_controller.create(mode, project=PROJECT)
        if mode == 'on':
            control.queue_controller.set_metadata(
                mode, {'_history_ttl': 86400}, project=PROJECT)

    rates = {mode: ([], []) for mode in MODES}
    live = {}
    for _ in range(args.rounds):
        for mode in MODES:
            posts, claims = rates[mode]
            posts.append(common.post_rate(data[mode], mode, None,
                                          args.seconds))
            if mode != 'mongodb':
                live[mode] = sizes(data[mode], mode)[0]
            claims.append(claim_delete_rate(data[mode], mode))
    medians = {mode: (statistics.median(rates[mode][0]),
                      statistics.median(rates[mode][1])) for mode in MODES}
    print('\n%-9s %12s %16s' % ('', 'post msg/s', 'claim+del msg/s'))
    for mode in MODES:
        print('%-9s %12.0f %16.0f' % ((mode,) + medians[mode]))
    for name, (top, bottom) in (('off / mongodb', ('off', 'mongodb')),
                                ('on / off', ('on', 'off'))):
        ratios = [[a / b for a, b in zip(rates[top][i], rates[bottom][i])]
                  for i in (0, 1)]
        print('%-14s post %.2f (rounds %.2f-%.2f), claim+delete %.2f '
              '(rounds %.2f-%.2f)' % (
                  name, statistics.median(ratios[0]), min(ratios[0]),
                  max(ratios[0]), statistics.median(ratios[1]),
                  min(ratios[1]), max(ratios[1])))
    _, kept, count = sizes(data['on'], 'on')
    print('\ndocument bytes (bson): live without history %.0f, with '
          'history %.0f; processed and kept %.0f (%d documents)' % (
              live['off'], live['on'], kept, count))


if __name__ == '__main__':
    main()
