"""Worker processes on ``swift.delay`` killed with kill -9 at random
moments (``tests/common/kill9.py``)."""

from swiftclient import exceptions as swift_errors

from tests.common import kill9
from tests.fixtures import swift_store
from zaqar_delay.storage.swift import index as idx
from zaqar_delay.storage.swift import upstream


class SwiftKill9Test(kill9.KillTests, swift_store.DelayTestBase):

    store = 'swift.delay'
    conf_file = swift_store.CONF

    def describe(self, data, queue, mid, project):
        """The message's object and every index entry naming it."""
        client = data.connection
        index = idx.Index(client, queue, project)
        try:
            headers, body = client.get_object(
                upstream.message_container(queue, project), mid)
            found = ['object x-delete-at %s: %s' % (
                headers.get('x-delete-at'), body.decode()[:400])]
        except swift_errors.ClientException as e:
            found = ['object: %s' % e.http_status]
        found.append('lock: %r' % (index.lock_of(mid),))
        for kind in (idx.READY, idx.WAITING, idx.DUE, idx.CLAIM_EXPIRY):
            for name in index.names(kind, limit=10000):
                content = index.read(kind, name) or b''
                if mid in name or mid.encode() in content:
                    found.append('%s %s: %s' % (kind, name, content[:400]))
        found.append('claims: %s' % [o['name'] for o in client.get_container(
            upstream.claim_container(queue, project))[1]])
        return '; '.join(found)
