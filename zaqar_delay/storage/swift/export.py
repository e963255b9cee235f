"""Read a queue's messages out of a Swift store, for ``export``.

Reads upstream Zaqar's message objects (one GET each, a listing page at
a time), so it reads a ``swift`` store as well as a ``swift.delay`` one.
A message's claim expiry lives in its claim object; the export looks
the claim up.
"""

import re
import uuid

from oslo_serialization import jsonutils
import swiftclient
from zaqar.storage.swift import utils

from zaqar_delay.storage import export


_DELAY_ID = re.compile(r'^([0-9a-f]{16})-[0-9a-f]{16}$')
_UUID1_EPOCH = 0x01b21dd213814000   # 1582-10-15 to 1970-01-01, in 100 ns


def created_at(name, headers):
    """When a message was posted: from its id, which holds the time
    (``swift.delay``'s ids and upstream's uuid1), else the object's
    timestamp (which a claim's rewrite moves)."""
    match = _DELAY_ID.match(name)
    if match:
        return int(match.group(1), 16) / 1e6
    try:
        stamp = uuid.UUID(name)
        if stamp.version == 1:
            return (stamp.time - _UUID1_EPOCH) / 1e7
    except ValueError:
        pass
    return float(headers['x-timestamp'])


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
            yield export.record(
                id=obj['name'], created=created_at(obj['name'], headers),
                ttl=msg['ttl'],
                expires=int(headers['x-delete-at']),
                due=msg.get('delay_expires'), claim_id=msg['claim_id'],
                claim_expires=None, claim_count=msg.get('claim_count', 0),
                body=msg['body'])
