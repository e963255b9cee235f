"""Read and replay a queue's history on ``redis.delay``.

Each queue with ``_history_ttl`` has one stream (``keys.history``),
which the message scripts append to in the same atomic step as each
change (``scripts/history.lua``). Its entries' fields, trimming and
expiry: doc/source/history.rst, "Retention and memory". Reading a time
range costs one XRANGE per ``page`` entries of that range.
"""

from zaqar_delay import dedup
from zaqar_delay.history import events as history
from zaqar_delay.history import replay
from zaqar_delay.storage import base
from zaqar_delay.storage import common
from zaqar_delay.storage.redis import keys
from zaqar_delay.storage.redis import scripting
from zaqar_delay.storage.redis import upstream

# Seconds the stream ids (the redis server's clock) may be off from the
# events' times (Zaqar's clock), around a time range read.
SKEW = 60


def _event(fields):
    fields = {name.decode(): value for name, value in fields.items()}
    body = fields.pop('b', None)
    found = {name: value.decode() for name, value in fields.items()}
    mid, kind, at = found.pop('m'), found.pop('k'), int(found.pop('t'))
    if body is not None:
        found['body'] = upstream.unpack(body)
    return history.Event(at, mid, kind, found)


def read(client, queue, project, since=None, until=None, page=1000):
    """The queue's events with times in [since, until] (None: open), in
    time order (the order of the changes for events of one time)."""
    low = '-' if since is None else '%d' % max(0, (since - SKEW) * 1000)
    high = '+' if until is None else '%d' % ((until + SKEW) * 1000)
    key = keys.history(queue, project)
    found = []
    while True:
        entries = client.xrange(key, low, high, count=page)
        found += [_event(fields) for _, fields in entries]
        if len(entries) < page:
            break
        low = '(' + entries[-1][0].decode()
    found.sort(key=lambda event: event.at)
    return list(history.select(found, since, until))


class History(base.History):
    """A ``redis.delay`` store's history; a replay makes two
    requests per message posted (the post, the ``replayed`` record)
    besides reading the history. With ``wait_replicas`` each is
    acknowledged once replicated, or raises ``NotReplicated``."""

    def events(self, queue, project, since=None, until=None):
        return read(self.driver.connection, queue, project, since, until)

    def post(self, queue, project, posted, target, delay, client_uuid):
        message = replay.message(posted, delay)
        delays, _, keep = common.post_plan(
            self.driver, self.messages._queue_ctrl, target, project,
            [message])
        digest = replay.digest(project, queue, posted.message_id, target)
        new_id, = self.messages.store(
            target, project, [message], client_uuid, delays,
            [dedup.Dedup(digest, message['ttl'])], keep)
        scripting.sent(
            self.driver.connection, self.driver.replication,
            lambda pipe: pipe.xadd(keys.history(queue, project), {
                'm': posted.message_id, 'k': history.REPLAYED,
                't': self.driver.now(), 'to': target, 'as': new_id},
                nomkstream=True))
        return replay.Replayed(posted, new_id, False)
