"""Replay: post a queue's processed messages again, once each.

Pure: which posted events to post again, and the dedup digest that makes
a replay idempotent. A driver posts each message with this digest as its
dedup key (window: the message's ttl), then records a ``replayed`` event
in the source queue's history: a second run skips what that event names,
and a run that died between the post and the record is answered by the
dedup key with the message it already posted (doc/source/history.rst).
"""

import collections
import hashlib

from zaqar_delay import delay as due_times
from zaqar_delay.history import events

# What one replayed message is: the posted event, and the id answering
# for it in the target queue (None on a dry run), and whether an earlier
# run had posted it.
Replayed = collections.namedtuple('Replayed', 'posted new_id again')


def digest(project, queue, message_id, target):
    """The dedup digest of ``message_id`` of ``queue`` replayed to
    ``target`` (same length as ``zaqar_delay.dedup``'s)."""
    value = '\0'.join(('replay', project or '', queue, message_id, target))
    return hashlib.sha256(value.encode()).hexdigest()[:40]


def plan(history, target):
    """(to post, done): the posted events of ``history`` (every event of
    the queue in a time range) whose message was not replayed to
    ``target`` yet, in posting order; and {message id: new id} of those
    that were."""
    done = {}
    for event in history:
        if (event.kind == events.REPLAYED and
                event.fields.get('to') == target):
            done[event.message_id] = event.fields.get('as')
    todo = [event for event in history
            if event.kind == events.POSTED and event.message_id not in done]
    return todo, done


def message(posted, delay=None):
    """The message to post for a posted event: its body and ttl, and its
    own delay unless ``delay`` is given."""
    fields = posted.fields
    return {'body': fields.get('body'), 'ttl': int(fields['ttl']),
            'delay': int(fields['delay'] if delay is None else delay)}


def as_line(done):
    """A line saying what one Replayed did."""
    what = ('would post' if done.new_id is None else
            'already posted as %s' % done.new_id if done.again else
            'posted as %s' % done.new_id)
    return '%s  %s  %s' % (due_times.iso(done.posted.at),
                           done.posted.message_id, what)
