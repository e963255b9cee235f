"""What the schedule job knows of a queue before it posts into it (runs
on the Spark executors; needs only the standard library).

Zaqar's v2 API keeps a posted message's ``delay`` only in a queue that
has a ``_default_message_delay``; in any other queue it drops the delay
and the message can be claimed at once. So once per partition, before
its first post into a queue, the poster makes the queue a delayed queue
if it does not exist, else reads its metadata (:func:`look_up`); a row
that would be delayed in an existing queue without a default delay is
refused (:func:`refusal`). An existing queue's metadata is never
changed. See doc/source/pipeline.rst, "Queues".
"""

import collections
import json

from zaqar_delay import delay as due_times

DEFAULT_DELAY = '_default_message_delay'
DEDUP_KEY = '_dedup_key'

#: A queue as the poster found it: ``delay`` its default delay in
#: seconds (0: none), ``dedup`` whether it has a ``_dedup_key``,
#: ``refused`` why no row can be posted into it (None: rows can).
Queue = collections.namedtuple('Queue', 'delay dedup refused')


def reason(reply):
    """Why a request failed, in one line: ``reply`` is the server's reply
    or the text of a failure that got none."""
    if isinstance(reply, str):
        return reply
    try:
        detail = reply.json()
        text = detail.get('description') or detail.get('title')
    except (ValueError, AttributeError):
        text = reply.text.strip()
    return 'refused by the server (%d): %s' % (
        reply.status_code, text or reply.reason)


def _status(reply):
    return None if isinstance(reply, str) else reply.status_code


def _seconds(value):
    return value if due_times.whole(value) and value > 0 else 0


def look_up(request, name, queue_delay):
    """The :class:`Queue` named ``name``, made with
    ``_default_message_delay`` = ``queue_delay`` when it does not exist.

    ``request(method, path, body=None)`` gives the reply to one request
    (transient failures retried) or the text of its failure. A PUT makes
    the queue (201) or finds it there, made before or meanwhile by
    anyone, and changes nothing (204: then a GET reads its metadata).
    Zaqar answers a GET of a missing queue with default metadata, so
    only the PUT tells.
    """
    path = '/v2/queues/%s' % name
    made = request('PUT', path, json.dumps({DEFAULT_DELAY: queue_delay}))
    if _status(made) == 201:
        return Queue(queue_delay, False, None)
    if _status(made) != 204:
        return Queue(0, False, 'could not create queue %s: %s' % (
            name, reason(made)))
    found = request('GET', path)
    if _status(found) != 200:
        return Queue(0, False, 'could not read queue %s: %s' % (
            name, reason(found)))
    try:
        metadata = found.json()
        return Queue(_seconds(metadata.get(DEFAULT_DELAY)),
                     DEDUP_KEY in metadata, None)
    except (ValueError, AttributeError):
        return Queue(0, False, 'could not read queue %s: not JSON: %r' % (
            name, found.text[:80]))


def refusal(name, queue, delay):
    """Why a message delayed ``delay`` seconds (None: by its queue's
    default) cannot be posted into ``queue``, the :class:`Queue` named
    ``name``; None when it can."""
    if queue.refused:
        return queue.refused
    if delay and not queue.delay:
        return ('queue %s has no _default_message_delay, so Zaqar would '
                'drop this message\'s delay (%d s) and deliver it at once: '
                'set _default_message_delay on the queue (1 or more) and '
                'run the job again' % (name, delay))
    return None
