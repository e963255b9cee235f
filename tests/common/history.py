"""What the history tests share, on a running ``self.stack``
(tests/fixtures/zaqar_server): a python-zaqarclient client of
``self.project``, queues with dotted names, claims that poll, and
``zaqar-delay-manage`` run in the test's process."""

import io
import json
import time

from zaqarclient.queues import client
from zaqarclient.queues.v2 import core
from zaqarclient.queues.v2 import queues

from zaqar_delay.cmd import manage as manage_cmd


class HistoryClient:
    """Mixed into a TestCase; ``connect()`` makes ``self.cli``."""

    project = 'tenant.a'

    def connect(self):
        self.cli = client.Client(self.stack.url, version=2, conf={
            'auth_opts': {'backend': 'noauth',
                          'options': {'os_project_id': self.project}}})

    def dotted(self, name, **metadata):
        """The client's queue ``name`` (dots and all), made with
        ``metadata`` in its PUT (python-zaqarclient refuses dotted names
        when it makes a queue)."""
        queue = queues.Queue(self.cli, 'placeholder')
        queue._name = name
        req, trans = self.cli._request_and_transport()
        core.queue_create(trans, req, name, metadata=metadata)
        return queue

    def manage(self, *argv):
        """The lines ``zaqar-delay-manage argv --project <project>``
        writes; it must exit 0."""
        out = io.StringIO()
        code = manage_cmd.main(['--config-file', self.stack.conf] +
                               list(argv) + ['--project', self.project],
                               out=out)
        self.assertEqual(0, code, out.getvalue())
        return out.getvalue().splitlines()

    def history(self, queue, *argv):
        """The queue's events, as ``history --json`` gives them."""
        return [json.loads(line)
                for line in self.manage('history', queue, '--json', *argv)]

    def claim_soon(self, queue, timeout=30):
        """The first claim that takes something, and its message."""
        deadline = time.time() + timeout
        while True:
            claim = queue.claim(ttl=60, grace=60, limit=1)
            messages = list(claim)
            if messages:
                return claim, messages[0]
            self.assertLess(time.time(), deadline, 'nothing to claim')
            time.sleep(0.2)
