"""A ``swift.delay`` queue's message objects, as upstream keeps them
(container ``zaqar_message:<queue>:<project>``, content the message's
JSON): read, written back and deleted by the operations that hold a
message (claims, promotion, dead-lettering); and its claim objects,
read."""

from oslo_serialization import jsonutils
from oslo_utils import timeutils
from zaqar.storage import errors

from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import upstream


def found(client, queue, message_id, project):
    """(headers, body) of a message object, its body the JSON content as
    bytes; None when there is no such object. One GET."""
    with responses.tolerating(responses.NOT_FOUND):
        return client.get_object(upstream.message_container(queue, project),
                                 message_id)
    return None


def write(client, queue, project, message_id, content, expires, client_id):
    """Write a message's ``content`` (a dict) until ``expires``, with the
    id of the client that posted it. One PUT."""
    objects.put(client, upstream.message_container(queue, project),
                message_id, jsonutils.dumps(content), expires,
                content_type='application/json',
                headers={'x-object-meta-clientid': client_id})


def delete(client, queue, message_id, project):
    """Delete a message object; gone already is fine. One DELETE."""
    with responses.tolerating(responses.NOT_FOUND):
        client.delete_object(upstream.message_container(queue, project),
                             message_id)


def live_claim(client, queue, claim_id, project):
    """(expiry, ttl, message ids) of claim ``claim_id`` while it lives
    by Zaqar's clock; ClaimDoesNotExist when it has ended, or there is
    no such claim. One GET of the claim object (none for an empty
    ``claim_id``)."""
    if not claim_id:
        raise errors.ClaimDoesNotExist(claim_id, queue, project)
    headers = None
    with responses.tolerating(responses.NOT_FOUND):
        headers, body = client.get_object(
            upstream.claim_container(queue, project), claim_id)
    if headers is None:
        raise errors.ClaimDoesNotExist(claim_id, queue, project)
    expires = int(headers['x-delete-at'])
    if expires <= timeutils.utcnow_ts():
        raise errors.ClaimDoesNotExist(claim_id, queue, project)
    ttl = int(headers.get('x-object-meta-ttl', expires))
    return expires, ttl, jsonutils.loads(body)
