"""Posting a partition's rows through Zaqar's HTTP API (runs on the
Spark executors; needs only the standard library).

Rows go in batches of one project and queue within the server's
per-post limits, up to ``--in-flight`` posts at once. A row is posted,
counted as a duplicate (a live message with its ``_dedup_key`` value
answers for it), or reported rejected with the reason: refused for its
queue (``queues``) or by the server (a refused batch is posted again a
row at a time), or still failing after the retries. Queues, batches,
retries and duplicates: doc/source/pipeline.rst.
"""

import collections
from concurrent import futures
import json
import math
import threading
import time
import uuid

from zaqar_delay import errors
from zaqar_delay.pipeline import connection
from zaqar_delay.pipeline import queues

TRANSIENT = {429, 500, 502, 503, 504}
IDS_PER_GET = 20    # Zaqar's largest page: ids of one bulk GET
OLDER = 2           # seconds of age past the post: posted before it

# A post's body is '{"messages": [m1, m2, ...]}': ENVELOPE bytes (16)
# plus each message's JSON and, between two of them, SEPARATOR bytes
# (json.dumps' ', '). Each message is counted with a separator, so a
# batch's count is at most SEPARATOR bytes over its true size.
ENVELOPE = len(json.dumps({'messages': []}))
SEPARATOR = len(json.dumps([0, 0])) - len(json.dumps([0])) - 1


def body_of(text):
    """A body from its text: JSON if it parses, else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


class Poster:
    """Posts rows of one partition; picklable, so Spark ships it."""

    def __init__(self, url, token=None, batch_size=20,
                 max_post_bytes=262144, retries=5, backoff=0.5,
                 timeout=30.0, clock=time.time, sleep=time.sleep,
                 in_flight=4, queue_delay=1):
        self.url = url.rstrip('/')
        self.queue_delay = queue_delay
        self.in_flight = in_flight
        self.token = token
        self.batch_size = batch_size
        self.max_post_bytes = max_post_bytes
        self.retries = retries
        self.backoff = backoff
        self.timeout = timeout
        self.clock = clock
        self.sleep = sleep

    def _headers(self, project):
        headers = {'Client-ID': self.client_id,
                   'Content-Type': 'application/json'}
        if project:
            headers['X-Project-ID'] = project
        if self.token:
            headers['X-Auth-Token'] = self.token
        return headers

    def message(self, row):
        """The message a row posts; ``deliver_at`` becomes a delay now."""
        msg = {'body': body_of(row['body'])}
        if row['ttl'] is not None:
            msg['ttl'] = row['ttl']
        if row['delay'] is not None:
            msg['delay'] = row['delay']
        elif row['deliver_at'] is not None:
            msg['delay'] = max(0, math.ceil(row['deliver_at'] -
                                            self.clock()))
        return msg

    def _request(self, session, project, method, path, payload=None):
        """One request, retried while the failure is transient: the
        reply, or the text of the last failure."""
        failure = None
        for attempt in range(self.retries + 1):
            if attempt:
                self.sleep(self.backoff * 2 ** (attempt - 1))
            try:
                resp = session.request(method, path, payload,
                                       self._headers(project))
            except errors.NoReply as exc:
                failure = 'no reply: %s' % exc.kind
                continue
            if resp.status_code not in TRANSIENT:
                return resp
            failure = queues.reason(resp)
        return 'gave up after %d attempts: %s' % (self.retries + 1, failure)

    def _send(self, session, project, queue, messages):
        """One POST of messages (their JSON texts), as ``_request``."""
        return self._request(session, project, 'POST',
                             '/v2/queues/%s/messages' % queue,
                             '{"messages": [%s]}' % ', '.join(messages))

    def _queue(self, session, project, queue):
        """The queue's :class:`queues.Queue`, looked up (or made) once."""
        if (project, queue) not in self._queues:
            self._queues[(project, queue)] = queues.look_up(
                lambda method, path, body=None: self._request(
                    session, project, method, path, body),
                queue, self.queue_delay)
        return self._queues[(project, queue)]

    def _duplicates(self, session, project, queue, resp, started):
        """How many of a post's answers are messages posted before it."""
        try:
            ids = [href.rsplit('/', 1)[-1]
                   for href in resp.json()['resources']]
        except (ValueError, KeyError, TypeError):
            return 0
        with self._lock:
            fresh = list(dict.fromkeys(mid for mid in ids
                                       if mid not in self._answered))
            self._answered.update(fresh)
        duplicates = len(ids) - len(fresh)      # answered twice
        elapsed = self.clock() - started
        for start in range(0, len(fresh), IDS_PER_GET):
            try:
                # Commas as they are: Zaqar splits ``ids`` on a literal
                # comma only.
                found = session.request(
                    'GET', '/v2/queues/%s/messages?ids=%s' % (
                        queue, ','.join(fresh[start:start + IDS_PER_GET])),
                    headers=self._headers(project))
                messages = found.json().get('messages', [])
            except (errors.NoReply, ValueError, AttributeError):
                continue
            duplicates += sum(1 for msg in messages
                              if msg.get('age', 0) > elapsed + OLDER)
        return duplicates

    def _post(self, session, batch):
        """Post a batch of (row, message's JSON, size); yields result
        rows."""
        project, queue = batch[0][0]['project'], batch[0][0]['queue']
        started = self.clock()
        resp = self._send(session, project, queue, [m for _, m, _ in batch])
        if not isinstance(resp, str) and 200 <= resp.status_code < 300:
            duplicates = self._queues[(project, queue)].dedup and \
                self._duplicates(session, project, queue, resp, started)
            if duplicates:
                yield _posted(project, queue, duplicates, 'duplicate')
            if len(batch) > duplicates:
                yield _posted(project, queue, len(batch) - duplicates)
        elif isinstance(resp, str) or len(batch) == 1:
            reason = queues.reason(resp)
            for row, _, _ in batch:
                yield _refused(row, reason)
        else:
            for one in batch:
                yield from self._post(session, [one])

    def __call__(self, rows):
        """Post an iterator of rows; yields result rows (see
        :data:`schemas.POST_RESULT`), up to ``in_flight`` posts at once."""
        self.client_id = str(uuid.uuid4())
        self._queues, self._answered = {}, set()
        self._lock = threading.Lock()
        local = threading.local()
        sessions = [connection.Connection(self.url, self.timeout)]

        def post(batch):
            if not hasattr(local, 'session'):
                local.session = connection.Connection(self.url,
                                                      self.timeout)
                with self._lock:
                    sessions.append(local.session)
            return list(self._post(local.session, batch))

        sent = collections.deque()
        with futures.ThreadPoolExecutor(max(1, self.in_flight)) as pool:
            try:
                for item in self._batches(rows, sessions[0]):
                    if isinstance(item, dict):      # a refused row
                        yield item
                        continue
                    sent.append(pool.submit(post, item))
                    while len(sent) >= max(1, self.in_flight) or \
                            (sent and sent[0].done()):
                        yield from sent.popleft().result()
                while sent:
                    yield from sent.popleft().result()
            finally:
                for future in sent:
                    future.cancel()
        for session in sessions:
            session.close()

    def _batches(self, rows, session):
        """Batches of (row, message's JSON, size), in input order, and
        the result rows of messages refused before posting: too large,
        or not to be posted into their queue (looked up on
        ``session``)."""
        batch, size = [], 0
        for row in rows:
            row = row.asDict() if hasattr(row, 'asDict') else row
            message = self.message(row)
            refused = queues.refusal(row['queue'], self._queue(
                session, row['project'], row['queue']), message.get('delay'))
            if refused:
                yield _refused(row, refused)
                continue
            msg = json.dumps(message)
            msg_size = len(msg) + SEPARATOR
            if ENVELOPE + msg_size > self.max_post_bytes:
                yield _refused(row, 'message is larger than the server '
                               'accepts in a post (%d bytes)'
                               % self.max_post_bytes)
                continue
            if batch and (len(batch) == self.batch_size or
                          ENVELOPE + size + msg_size > self.max_post_bytes
                          or (row['project'], row['queue']) !=
                          (batch[0][0]['project'], batch[0][0]['queue'])):
                yield batch
                batch, size = [], 0
            batch.append((row, msg, msg_size))
            size += msg_size
        if batch:
            yield batch


def _posted(project, queue, count, status='posted'):
    return {'status': status, 'count': count, 'project': project,
            'queue': queue, 'body': None, 'ttl': None, 'delay': None,
            'deliver_at': None, 'reason': None}


def _refused(row, reason):
    return {'status': 'refused', 'count': 1, 'project': row['project'],
            'queue': row['queue'], 'body': row['body'],
            'ttl': _text(row['ttl']), 'delay': _text(row['delay']),
            'deliver_at': _text(row['deliver_at']), 'reason': reason}


def _text(value):
    return None if value is None else str(value)
