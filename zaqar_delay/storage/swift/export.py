"""Read a queue's messages out of a Swift store, for ``export``.

Reads upstream Zaqar's message objects (one GET each, a listing page at
a time), so it reads a ``swift`` store as well as a ``swift.delay`` one.
A message's claim expiry lives in its claim object; the export looks
the claim up.
"""

from oslo_serialization import jsonutils

from zaqar_delay.storage import base
from zaqar_delay.storage import export
from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import upstream


def _listing(client, container, marker, batch):
    with responses.tolerating(responses.NOT_FOUND):
        return client.get_container(container, marker=marker,
                                    limit=batch)[1]
    return []


class Export(base.Export):
    """Upstream's records of a swift store, a page at a time."""

    def records(self, queue, project, batch):
        client = self.driver.connection
        container = upstream.message_container(queue, project)
        marker = ''
        while True:
            objects = _listing(client, container, marker, batch)
            if not objects:
                return
            marker = objects[-1]['name']
            for obj in objects:
                with responses.tolerating(responses.NOT_FOUND):  # gone since
                    headers, content = client.get_object(container,
                                                         obj['name'])
                    msg = jsonutils.loads(content)
                    yield export.record(
                        id=obj['name'],
                        created=idtime.created_at(obj['name'], headers),
                        ttl=msg['ttl'], expires=int(headers['x-delete-at']),
                        due=msg.get('delay_expires'), claim_id=msg['claim_id'],
                        claim_expires=None,
                        claim_count=msg.get('claim_count', 0),
                        body=msg['body'])
