"""A ``mongodb.delay`` message document as Zaqar's message dict, with
its due time (unix seconds to the millisecond): ``d``, else its id's
second (a document without ``d`` is due from its post)."""

import uuid

from bson import binary
from zaqar.storage.mongodb import utils

from zaqar_delay import delay
from zaqar_delay.storage import message
from zaqar_delay.storage.mongodb import upstream


def due_of(doc):
    """The due time of a message document."""
    due = doc.get('d')
    return float(due) if due is not None else float(
        utils.oid_ts(doc['_id']))


def basic(doc, now):
    """Zaqar's message dict of ``doc`` at ``now`` (whole seconds), its
    age counted from the id's time (the posting host's clock) and never
    below 0, with its due time (``message.Message``)."""
    return message.Message(
        delay.with_age(upstream.basic_message(doc, now)), due_of(doc))


def client_binary(client_uuid):
    """A client id as documents keep it (``u``), or None."""
    if client_uuid is None:
        return None
    if not isinstance(client_uuid, uuid.UUID):
        client_uuid = uuid.UUID(str(client_uuid))
    return binary.Binary.from_uuid(client_uuid)
