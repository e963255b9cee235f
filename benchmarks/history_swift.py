"""Message history on ``swift.delay``: requests and bytes, off and on.

    python -m benchmarks.history_swift [--messages 200]

Starts Keystone and Swift (``tests/fixtures``). On one queue without
``_history_ttl`` and one with it (a day), posts ``--messages`` messages
(body ``{"n": <int>}``, 10 a call), then claims 10 at a time and
deletes each with its claim until none is left. Prints, per message
processed: the Swift requests of the posts and of the claims and
deletes (counted at the client), the seconds each phase took, and the
history kept: the event objects and their bytes (the listing's
``bytes``: the JSON content; Swift adds per object its container row
and its on-disk file and metadata, which depend on the deployment).
"""

import argparse
import time

from zaqar.storage.redis import driver as redis_driver

from benchmarks import common
from tests.fixtures import openstack
from tests.fixtures import services
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import driver as delay_driver
from zaqar_delay.storage.swift import history

PROJECT = common.PROJECT
HISTORY_TTL = 86400


def run(control, data, queue, count):
    """(post requests, claim+delete requests, post s, claim+delete s,
    messages processed), each per message processed but the last."""
    swift = data.connection
    swift.clear()
    start = time.monotonic()
    for first in range(0, count, 10):
        data.message_controller.post(
            queue, [{'ttl': 3600, 'body': {'n': n}}
                    for n in range(first, min(count, first + 10))],
            common.CLIENT, project=PROJECT)
    posted, post_s = swift.total(), time.monotonic() - start
    swift.clear()
    start, done = time.monotonic(), 0
    while True:
        claim_id, messages = data.claim_controller.create(
            queue, {'ttl': 300, 'grace': 60}, project=PROJECT, limit=10)
        messages = list(messages)
        if not messages:
            break
        for message in messages:
            data.message_controller.delete(queue, message['id'], PROJECT,
                                           claim=claim_id)
            done += 1
    return (posted / count, swift.total() / done, post_s / count,
            (time.monotonic() - start) / done, done)


def kept(data, queue):
    """(event objects, their bytes) of the queue's history."""
    objects = data.connection.get_container(
        history.container(queue, PROJECT), limit=10000)[1]
    return len(objects), sum(obj['bytes'] for obj in objects)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--messages', type=int, default=200)
    args = parser.parse_args(argv)
    stack = services.keystone_swift()
    conf_text = swift_store.DRIVER_CONF.format(
        admin=openstack.ADMIN, password=openstack.PASSWORD,
        keystone=stack.keystone, region=openstack.REGION,
        redis=services.redis_server().url)
    control, data = common.make_driver(delay_driver.DataDriver,
                                       redis_driver.ControlDriver, conf_text)
    data._lazy_connection = swift_store.Counting(data.connection)
    print('%-4s %10s %12s %9s %12s %8s %10s' % (
        'mode', 'post req', 'cl+del req', 'post ms', 'cl+del ms',
        'events', 'bytes'))
    for mode, metadata in (('off', {}), ('on', {'_history_ttl':
                                                HISTORY_TTL})):
        queue = 'history.' + mode
        control.queue_controller.create(queue, metadata=metadata,
                                        project=PROJECT)
        run(control, data, queue, 10)       # containers made
        posts, claims, post_s, claim_s, done = run(control, data, queue,
                                                   args.messages)
        events, size = kept(data, queue) if mode == 'on' else (0, 0)
        print('%-4s %10.2f %12.2f %9.1f %12.1f %8.2f %10.1f' % (
            mode, posts, claims, post_s * 1000, claim_s * 1000,
            events / (done + 10), size / (done + 10)))


if __name__ == '__main__':
    main()
