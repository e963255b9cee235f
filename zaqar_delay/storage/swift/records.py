"""A ``swift.delay`` message object as Zaqar's message dict, with its due
time (``storage.message.Message``)."""

from oslo_serialization import jsonutils

from zaqar_delay.storage import message
from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import upstream

# The content key a reschedule sets: such a message is never taken
# before its content's ``delay_expires`` (``waits``), whichever index
# entry leads a claim to it (doc/source/swift.rst, "Reschedules and
# moves").
RESCHEDULED = 'rescheduled'


def due_of(message_id, content, headers):
    """The due time of a message (unix seconds, to the ms where it was
    kept): its content's ``delay_expires``, else its posting time."""
    due = content.get('delay_expires')
    if due is None:
        return idtime.created_at(message_id, headers)
    return due


def waits(content, now):
    """Whether a message whose content is ``content`` (a dict) must not
    be taken at ``now`` (unix seconds, to the ms): a rescheduled one not
    due yet."""
    return bool(content.get(RESCHEDULED)) and content.get(
        'delay_expires', 0) > now


def basic(message_id, body, headers, now):
    """The message as Zaqar returns it (upstream's, with the checksum),
    and its due time.

    Its age counts from the posting time held in its id: the object's
    timestamp moves when a claim or a dead-lettering rewrites it, and
    Zaqar's whole-second clock can fall behind it.
    """
    found = upstream.message_to_json(message_id, body, headers, now)
    found['age'] = max(0, now - idtime.created_at(message_id, headers))
    content = jsonutils.loads(body)
    if content.get('checksum'):
        found['checksum'] = content['checksum']
    return message.Message(found, due_of(message_id, content, headers))
