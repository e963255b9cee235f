"""Switching a live store between ``swift`` and ``swift.delay``."""

import io
import uuid

import fixtures
from oslo_serialization import jsonutils
from oslo_utils import timeutils
from zaqar.storage.swift import driver as upstream_driver

from tests.fixtures import openstack
from tests.fixtures import services
from tests.fixtures import swift_store
from zaqar_delay.cmd import manage
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import migrate

CLIENT = str(uuid.uuid4())


# The Swift account of a user of its own: ``manage migrate`` goes through
# every queue of the account, and the admin's account holds the queues of
# every test this process ran before.
USER = 'migrate'
CONF = 'wsgi_swift_delay_migrate.conf'


class MigrateTest(swift_store.DelayTestBase):

    config_file = CONF

    def setUp(self):
        stack = services.keystone_swift()
        if not getattr(stack, 'migrate_user', None):
            stack.migrate_user = stack.user(USER, USER + '-project',
                                            role='admin')
        services.zaqar_conf_dir(CONF, swift_store.DRIVER_CONF.format(
            user=USER, project=USER + '-project',
            password=stack.migrate_user, keystone=stack.keystone,
            region=openstack.REGION, redis=services.redis_server().url))
        super().setUp()
        timeutils.set_time_override()
        self.addCleanup(timeutils.clear_time_override)
        self.upstream = upstream_driver.DataDriver(
            self.conf, self.control.cache, self.control)
        self.queues.create('q', project=self.project)

    def manage(self, *argv):
        out = io.StringIO()
        self.assertEqual(0, manage.main(
            ['--config-file', self.conf_path(self.config_file), 'swift',
             'migrate'] + list(argv), out=out))
        return out.getvalue()

    def claim(self, driver):
        _, msgs = driver.claim_controller.create(
            'q', {'ttl': 600, 'grace': 60}, self.project, limit=10)
        return sorted(m['id'] for m in msgs)

    def post(self, driver, delay):
        return driver.message_controller.post(
            'q', [{'ttl': 3600, 'body': delay, 'delay': delay}], CLIENT,
            self.project)

    def index_entries(self):
        index = idx.Index(self.driver.connection, 'q', self.project)
        return sum(index.count(kind) for kind in idx.KINDS)

    def test_from_swift_to_swift_delay(self):
        held = self.post(self.upstream, 0)
        self.assertEqual(held, self.claim(self.upstream))
        ready = self.post(self.upstream, 0)
        waiting = self.post(self.upstream, 300)
        self.assertEqual([], self.claim(self.driver))

        report = self.manage('--to', 'swift.delay', '--dry-run')
        self.assertIn('ready 1, waiting 1, claimed 1, gone 0', report)
        self.assertEqual(0, self.index_entries())

        self.manage('--to', 'swift.delay')
        self.assertEqual(ready, self.claim(self.driver))
        timeutils.advance_time_seconds(300)
        self.assertEqual(waiting, self.claim(self.driver))

    def test_from_swift_delay_to_swift(self):
        ready = self.post(self.driver, 0)
        self.post(self.driver, 300)
        self.assertNotEqual(0, self.index_entries())

        self.assertIn('the store is ready for swift',
                      self.manage('--to', 'swift'))
        self.assertEqual(0, self.index_entries())
        found = self.upstream.message_controller.bulk_get(
            'q', ready, self.project)
        self.assertEqual(ready, [m['id'] for m in found])

    def test_a_newer_claims_lock_is_left_to_it(self):
        # The migration read the message as held by an old claim; since
        # then a swift.delay claim has taken it.
        (mid,) = self.post(self.driver, 0)
        self.assertEqual([mid], self.claim(self.driver))
        index = idx.Index(self.driver.connection, 'q', self.project)
        newer = index.lock_of(mid)
        client = self.driver.connection
        get_object = client.get_object

        def read_before_the_claim(container, name, *args, **kwargs):
            headers, body = get_object(container, name, *args, **kwargs)
            if container.startswith('zaqar_message:'):
                body = jsonutils.dumps(dict(jsonutils.loads(body),
                                            claim_id=str(uuid.uuid4())))
            return headers, body

        self.useFixture(fixtures.MockPatchObject(
            client, 'get_object', read_before_the_claim))
        self.useFixture(fixtures.MockPatchObject(
            migrate, '_live_claim',
            lambda *args: timeutils.utcnow_ts() + 30))
        self.assertEqual(1, sum(c.claimed for c in migrate.reindex(
            client, 'q', self.project)))
        self.assertEqual(newer, index.lock_of(mid))
        timeutils.advance_time_seconds(31)
        self.assertEqual([], self.claim(self.driver))   # still held
