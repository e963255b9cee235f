"""Read a queue's messages out of a Swift store, for ``export``.

Reads upstream Zaqar's message objects (one GET each, a listing page at
a time), so it reads a ``swift`` store as well as a ``swift.delay`` one.
A message's claim expiry lives in its claim object; the export looks
the claim up.
"""

from oslo_serialization import jsonutils
import swiftclient
from zaqar.storage.swift import utils

from zaqar_delay.storage import export


def records(driver, queue, project, batch):
    """Yield the queue's messages as export fields, in posting order."""
    client = driver.connection
    container = utils._message_container(queue, project)
    marker = ''
    while True:
        try:
            _, objects = client.get_container(container, marker=marker,
                                              limit=batch)
        except swiftclient.ClientException as exc:
            if exc.http_status == 404:
                return
            raise
        if not objects:
            return
        marker = objects[-1]['name']
        for obj in objects:
            try:
                headers, content = client.get_object(container, obj['name'])
            except swiftclient.ClientException as exc:
                if exc.http_status == 404:  # gone since the listing
                    continue
                raise
            msg = jsonutils.loads(content)
            created = float(headers['x-timestamp'])
            yield export.record(
                id=obj['name'], created=created, ttl=msg['ttl'],
                expires=int(headers['x-delete-at']),
                due=msg.get('delay_expires'), claim_id=msg['claim_id'],
                claim_expires=None, claim_count=msg.get('claim_count', 0),
                body=msg['body'])
