"""Write, read and replay a queue's history on ``swift.delay``.

One object per event in ``zaqar_delay_history:<queue>:<project>``,
expiring ``_history_ttl`` after the event, named so that a listing
reads a time range in time order. Each event is written after the
change it records succeeded: a crash loses at most the events in
flight, and never records a change that did not happen. Names, markers,
costs and what a crash can lose: doc/source/history.rst, "On
swift.delay".
"""

import time

from oslo_serialization import jsonutils
from oslo_utils import timeutils
from oslo_utils import uuidutils

from zaqar_delay import dedup
from zaqar_delay.history import events as history
from zaqar_delay.history import replay
from zaqar_delay.storage import base
from zaqar_delay.storage import common
from zaqar_delay.storage.swift import idtime
from zaqar_delay.storage.swift import locks
from zaqar_delay.storage.swift import objects
from zaqar_delay.storage.swift import parallel
from zaqar_delay.storage.swift import responses
from zaqar_delay.storage.swift import upstream

KEY = 'history_ttl'         # the field of a message's content
HISTORY_CLAIM = 'h-'        # ids of claims made on a queue with history
PAGE = 10000                # Swift's largest listing
# The events of reschedules and moves (``steering``), as redis.delay
# writes them.
RESCHEDULED = 'rescheduled'     # due
MOVED = 'moved'                 # to, as (the copy's id)
# Events after which a message is gone by a change, not by its ttl.
ENDS = (history.DELETED, history.DEAD_LETTERED, MOVED)
# Kinds recorded once per message, whoever races to record them.
ONCE = (history.DELETED,)


def container(queue, project):
    return 'zaqar_delay_history:%s:%s' % (queue, project)


def claim_id(metadata, delay_conf):
    """A new claim's id: a uuid, after ``HISTORY_CLAIM`` when the
    queue's ``metadata`` has ``_history_ttl`` (``delay_conf``: the
    ``[delay]`` options)."""
    kept = history.of_queue(metadata, delay_conf.max_history_ttl)
    return (HISTORY_CLAIM if kept else '') + uuidutils.generate_uuid()


def keeps(content):
    """The history ttl of a message's content (a dict), 0 for none."""
    return int(content.get(KEY) or 0)


def record(client, queue, project, keep, mid, kind, at=None, stamp=None,
           **fields):
    """Write one event of message ``mid`` when ``keep`` (its history
    ttl) is above 0; nothing (no request) otherwise. ``at``: Zaqar's
    time of the change (default now); ``stamp``: the writer's clock when
    the change began (default now), which orders the events of one
    second. One PUT; for a kind of ``ONCE``, the marker's create first
    (one PUT), and no event when another writer made it."""
    if not keep:
        return
    at = timeutils.utcnow_ts() if at is None else int(at)
    stamp = time.time() if stamp is None else stamp
    if kind in ONCE and not locks.create(
            client, container(queue, project), '.%s.%s' % (mid, kind), '',
            at + keep):
        return
    name = '%010d.%016d.%s.%s' % (at, int(stamp * 1e6), mid, kind)
    objects.put(client, container(queue, project), name,
                jsonutils.dumps({key: '' if value is None else value
                                 for key, value in fields.items()}),
                at + keep, content_type='application/json')


def _names(client, queue, project, since, until):
    # Past the markers (``.<message id>.<kind>``).
    marker = '%010d' % max(since or 0, 0)
    end = None if until is None else '%010d' % (int(until) + 1)
    found = []
    while True:
        listed = []
        with responses.tolerating(responses.NOT_FOUND):
            listed = client.get_container(
                container(queue, project), marker=marker, end_marker=end,
                limit=PAGE)[1]
        found += [obj['name'] for obj in listed
                  if obj['name'][:1].isdigit()]
        if len(listed) < PAGE:
            return found
        marker = listed[-1]['name']


def _event(client, queue, project, name):
    """The Event an object holds; None if it is gone (expired)."""
    at, _, mid, kind = name.split('.')
    with responses.tolerating(responses.NOT_FOUND):
        fields = jsonutils.loads(client.get_object(
            container(queue, project), name)[1])
        return history.Event(int(at), mid, kind, fields)
    return None


def _expired(client, queue, project, found, now):
    """The ``expired`` events of the messages of ``found`` (events in
    time order) that are gone without a change that ends them: at the
    end of their ttl as posted, or of their last event, if that is past;
    else ``now``, when the reader finds them gone."""
    posted, last, claims = {}, {}, {}
    for event in found:
        last[event.message_id] = event.at
        if event.kind == history.POSTED:
            posted[event.message_id] = event
        elif event.kind == history.CLAIMED:
            claims[event.message_id] = event.fields.get('count', '')
        elif event.kind in ENDS:
            posted.pop(event.message_id, None)

    def gone(event):
        with responses.tolerating(responses.NOT_FOUND):
            client.head_object(upstream.message_container(queue, project),
                               event.message_id)
            return None
        mid = event.message_id
        return history.Event(
            min(now, max(event.at + int(event.fields['ttl']), last[mid])),
            mid, history.EXPIRED, {'count': claims.get(mid, '')})
    return [event for event in parallel.each(gone, posted.values())
            if event]


def read(client, queue, project, since=None, until=None):
    """The queue's events with times in [since, until] (None: open), in
    time order. Requests: a listing per ``PAGE`` events from ``since``
    on, a GET of each (``parallel.WORKERS`` at once), and a HEAD of each
    message posted since then that no event ended."""
    names = _names(client, queue, project, since, None)
    found = [event for event in parallel.each(
        lambda name: _event(client, queue, project, name), names) if event]
    found += _expired(client, queue, project, found, timeutils.utcnow_ts())
    found.sort(key=lambda event: event.at)
    return list(history.select(found, since, until))


class History(base.History):
    """A ``swift.delay`` store's history; a replay makes, per
    message posted: the post's requests (its dedup key's lock among
    them) and the ``replayed`` event's PUT."""

    keep = None

    def events(self, queue, project, since=None, until=None):
        return read(self.driver.connection, queue, project, since, until)

    def begin(self, queue, project):
        # The replayed events last as the queue's history does (as long
        # as any may, once the queue keeps none).
        self.keep = (common.post_plan(self.driver, self.messages._queue_ctrl,
                                      queue, project, [])[2]
                     or self.driver.delay_conf.max_history_ttl)

    def post(self, queue, project, posted, target, delay, client_uuid):
        message = replay.message(posted, delay)
        (delay_s,), _, kept = common.post_plan(
            self.driver, self.messages._queue_ctrl, target, project,
            [message])
        digest = replay.digest(project, queue, posted.message_id, target)
        new_id = self.messages.post_one(
            target, project, client_uuid, message, delay_s,
            dedup.Dedup(digest, message['ttl']), kept, idtime.new())
        record(self.driver.connection, queue, project, self.keep,
               posted.message_id, history.REPLAYED, to=target,
               **{'as': new_id})
        return replay.Replayed(posted, new_id, False)
