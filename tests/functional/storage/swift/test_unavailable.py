"""A Swift that fails, as ``swift.delay``'s callers see it: Zaqar's
``ConnectionError`` (``errors.StoreUnavailable``) from every entry
point, one line from ``zaqar-delay-manage``, a 503 from zaqar-server.

In this process the client tries each request once
(``client.RETRIES``), so a failure is raised at once. Swift answers 503
(its answer patched in: a proxy whose servers are killed error-limits
them for a minute after they are back, which would fail the next
tests); a closed port refuses the connection; for the zaqar-server,
Swift's proxy is killed and started again.
"""

import io
import socket
import uuid

import fixtures
import requests
import stevedore
import testtools
from zaqar.storage import errors as storage_errors

from tests.common import behaviour
from tests.fixtures import openstack
from tests.fixtures import services
from tests.fixtures import swift_store
from tests.fixtures import zaqar_server
from zaqar_delay.cmd import manage
from zaqar_delay import errors

PROJECT = behaviour.PROJECT
PUSHES_CONF = 'wsgi_swift_delay_pushes.conf'


def closed_port():
    """A local port nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


class Unavailable(behaviour.Helpers):
    """The driver's entry points once Swift fails (``fail_swift``)."""

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.MonkeyPatch(
            'zaqar_delay.storage.swift.client.RETRIES', 0))
        (self.mid,) = self.post(0)      # a queue with a message

    def fail_swift(self):
        raise NotImplementedError

    def assertUnavailable(self, func, *args, **kwargs):
        exc = self.assertRaises(storage_errors.ConnectionError, func,
                                *args, **kwargs)
        self.assertIsInstance(exc, errors.StoreUnavailable)
        self.assertIn('Swift is unavailable: ', str(exc))

    def test_messages(self):
        self.fail_swift()
        messages = self.driver.message_controller
        self.assertUnavailable(self.post, 0)
        self.assertUnavailable(lambda: list(next(messages.list(
            self.queue, project=PROJECT, include_claimed=True))))
        self.assertUnavailable(messages.get, self.queue, self.mid,
                               project=PROJECT)
        self.assertUnavailable(messages.delete, self.queue, self.mid,
                               project=PROJECT)

    def test_claims(self):
        claim_id, _ = self.claim()
        self.fail_swift()
        claims = self.driver.claim_controller
        self.assertUnavailable(self.claim)
        self.assertUnavailable(claims.get, self.queue, claim_id,
                               project=PROJECT)
        self.assertUnavailable(claims.update, self.queue, claim_id,
                               {'ttl': 60, 'grace': 0}, project=PROJECT)
        self.assertUnavailable(claims.delete, self.queue, claim_id,
                               project=PROJECT)

    def test_topic_stage(self):
        # Loaded as Zaqar loads it (zaqar.storage.pipeline): the entry
        # point named after the driver's module.
        stage, = [found.obj for found in stevedore.ExtensionManager(
            'zaqar_delay.storage.swift.driver.topic.stages',
            invoke_on_load=True, invoke_args=(self.driver, self.control))]
        topic = 't-' + uuid.uuid4().hex[:8]
        stage.create(topic, project=PROJECT)
        self.fail_swift()
        self.assertUnavailable(stage.create, topic, project=PROJECT)
        self.assertUnavailable(stage.delete, topic, project=PROJECT)

    def test_queue_stats(self):
        self.fail_swift()
        self.assertUnavailable(self.queues.stats, self.queue,
                               project=PROJECT)

    def test_services(self):
        self.fail_swift()
        pushes = self.driver.push_store
        self.assertUnavailable(pushes.pending, 10)
        self.assertUnavailable(pushes.take, 0, 10, 30)
        self.assertUnavailable(self.driver.schedule_store.listed, 10)
        history = self.driver.history_class(self.driver)
        self.assertUnavailable(lambda: list(history.events(
            self.queue, PROJECT)))
        metrics = self.driver.metrics_class(self.driver)
        self.assertUnavailable(metrics.read, [(PROJECT, self.queue)], 0)
        self.assertUnavailable(metrics.totals)
        export = self.driver.export_class(self.driver)
        self.assertUnavailable(lambda: list(export.records(
            self.queue, PROJECT, 10)))


def answer_503(test):
    """Make Swift answer every request of this process with a 503, as
    a proxy whose account, container and object servers are down does
    (``client.Client`` reads the answer)."""
    test.useFixture(fixtures.MonkeyPatch(
        'zaqar_delay.storage.swift.client.Client._exchange',
        lambda *args: (503, 'Service Unavailable', {}, b'')))


class Answers503(Unavailable, swift_store.DelayTestBase):
    """Swift answers 503."""

    def fail_swift(self):
        answer_503(self)


class ProxyRefuses(Unavailable, swift_store.DelayTestBase):
    """The object-store endpoint refuses connections."""

    def fail_swift(self):
        client = self.driver.connection
        found = client._endpoint_parts()
        dead = found._replace(netloc='127.0.0.1:%d' % closed_port())
        client._endpoint = dead
        self.addCleanup(setattr, client, '_endpoint', found)
        for conn in list(client._idle):
            conn.close()
        client._idle[:] = []


class ManageTest(swift_store.DelayTestBase):
    """``zaqar-delay-manage`` on a Swift that answers 503: one line,
    status 1, no traceback."""

    config_file = PUSHES_CONF

    def setUp(self):
        stack = services.keystone_swift()
        services.zaqar_conf_dir(PUSHES_CONF, swift_store.DRIVER_CONF.format(
            user=openstack.ADMIN, project=openstack.ADMIN,
            password=openstack.PASSWORD, keystone=stack.keystone,
            region=openstack.REGION, redis=services.redis_server().url) +
            '\n[storage]\nmessage_pipeline = '
            'zaqar_delay.notification.notifier\n')
        super().setUp()
        self.useFixture(fixtures.MonkeyPatch(
            'zaqar_delay.storage.swift.client.RETRIES', 0))

    def test_pushes_pending_prints_one_line(self):
        answer_503(self)
        out, err = io.StringIO(), io.StringIO()
        with fixtures.MonkeyPatch('sys.stderr', err):
            status = manage.main(['--config-file',
                                  self.conf_path(PUSHES_CONF),
                                  'pushes', 'pending'], out=out)
        self.assertEqual(1, status, err.getvalue())
        self.assertEqual('', out.getvalue())
        (line,) = err.getvalue().splitlines()
        self.assertTrue(line.startswith(
            'zaqar-delay-manage: cannot reach the store: Swift is '
            'unavailable: Container GET failed: '), line)
        self.assertTrue(line.endswith('503 Service Unavailable'), line)


class ServerTest(testtools.TestCase):
    """A zaqar-server on ``wsgi.delay`` whose Swift proxy is killed
    (the server's client tries for 31 s)."""

    def test_a_post_answers_503_saying_it_may_be_stored(self):
        swift = services.keystone_swift()
        stack = zaqar_server.ZaqarServer(
            message_store='swift.delay', swift=swift.swift_store(),
            wsgi_delay=True).start()
        self.addCleanup(stack.cleanup)
        url = stack.url + '/v2/queues/q-' + uuid.uuid4().hex[:8]
        headers = {'Client-ID': str(uuid.uuid4()), 'X-Project-ID': 'p1'}
        self.assertEqual(201, requests.put(url, headers=headers,
                                           json={}).status_code)
        argv = swift.kill_server('proxy')
        self.addCleanup(swift.start_server, 'proxy', argv)
        reply = requests.post(url + '/messages', headers=headers, json={
            'messages': [{'body': 1, 'ttl': 300}]}, timeout=300)
        self.assertEqual(503, reply.status_code)
        self.assertIn('may have been stored', reply.json()['description'])
        with open(stack.log_path) as log:
            self.assertIn('StoreUnavailable: Swift is unavailable: '
                          '[Errno 111] Connection refused', log.read())
