"""A move through a zaqar-delay-server killed with kill -9 while it
moves: each message ends in exactly one of the two queues, once a
client repeats the moves that got no answer (as a client does).

Mixed into a test class per store (``store``, ``stack_options()``).
"""

import random
import threading
import time
import uuid

import requests

from tests.common import waiting_control
from tests.fixtures import zaqar_server

MESSAGES = 300
BATCH = 2
KILLS = 3


class MoveKill9(zaqar_server.StoreServer):

    def setUp(self):
        super().setUp()
        self.stack = self.start_server(wsgi_delay=True)
        self.addCleanup(self.stack.cleanup)
        self.api = waiting_control.Api(self.stack.url, 'kill.9')
        self.source = 'from.' + uuid.uuid4().hex[:8]
        self.target = 'to.' + uuid.uuid4().hex[:8]
        for name in (self.source, self.target):
            self.api.ok('put', '/queues/' + name, {})

    def bodies(self, queue):
        found = self.api.ok('get', '/queues/%s/messages' % queue,
                            echo='true', include_delayed='true',
                            include_claimed='true', limit=20)
        seen, page = [], found
        while page and page.get('messages'):
            seen += [m['body'] for m in page['messages']]
            marker = [link for link in page['links']
                      if link['rel'] == 'next'][0]['href']
            page = self.api.ok('get', marker.split('/v2', 1)[1])
        return seen

    def move_until_done(self, ids, stop):
        """Move ``ids`` in batches, repeating a batch until it got an
        answer (the server may be dead meanwhile)."""
        for at in range(0, len(ids), BATCH):
            batch = ids[at:at + BATCH]
            while not stop.is_set():
                try:
                    status, _ = self.api.call(
                        'post', '/queues/%s/messages/move' % self.source,
                        {'to': self.target, 'ids': batch})
                except requests.RequestException:
                    status = None
                if status == 200:
                    break
                self.unanswered += 1
                time.sleep(0.05)

    def test_a_server_killed_mid_move_loses_and_doubles_nothing(self):
        ids = []
        for at in range(0, MESSAGES, 50):
            found = self.api.ok(
                'post', '/queues/%s/messages' % self.source,
                {'messages': [{'body': n, 'ttl': 3600}
                              for n in range(at, at + 50)]})
            ids += [href.rsplit('/', 1)[1] for href in found['resources']]
        self.unanswered = 0
        stop = threading.Event()
        mover = threading.Thread(target=self.move_until_done,
                                 args=(ids, stop))
        mover.start()
        self.addCleanup(mover.join, 60)
        self.addCleanup(stop.set)
        rng = random.Random(9)
        for _ in range(KILLS):
            time.sleep(rng.uniform(0.05, 0.3))
            self.stack.kill()
            self.stack.restart()
        mover.join(300)
        self.assertFalse(mover.is_alive())
        # The kills came while it moved: some moves got no answer.
        self.assertGreater(self.unanswered, 0)
        moved = self.bodies(self.target)
        self.assertEqual([], self.bodies(self.source))
        self.assertEqual(list(range(MESSAGES)), sorted(moved))
