"""The push pass: pushes what has come due, to each subscriber.

Takes due pushes from a delay driver's ``push_store`` (``base.PushStore``)
for ``[delay_push] lease`` seconds and delivers each message to each
subscriber of its queue on its own (``slots.Delivery``): webhooks get
Zaqar's notification body, retried per ``policy``; other schemes run
Zaqar's own task once. A push is done when every subscriber's delivery
has ended; a failed delivery is recorded for ``[delay_push]
failed_retention``; subscribers that answered 2xx are recorded by the
next pass, so a dispatcher that dies repeats a push only to the others.
``runner`` runs the passes. Guarantees and bounds: doc/source/push.rst.
"""

import collections
import functools
import threading
import time
import urllib.parse
import uuid

from oslo_log import log as logging
import requests
from zaqar.storage import errors

from zaqar_delay.metrics import process as metrics
from zaqar_delay import opts
from zaqar_delay import pending
from zaqar_delay.push import payloads
from zaqar_delay.push import policy
from zaqar_delay.push import slots
from zaqar_delay.push import upstream
from zaqar_delay.push import webhook_http
from zaqar_delay.storage import message as stored

LOG = logging.getLogger(__name__)

WEBHOOK = ('http', 'https')


class _Outcome:
    """Counts a push's deliveries down; the push is done at zero. A
    delivery that failed is given to ``failed`` first; one that
    delivered while others are still going is given to ``partial``
    (so that the store can record it)."""

    def __init__(self, push, count, done, failed, partial, clock):
        self.push = push
        self.attempts = []      # pending.Attempt, as they are made
        self._clock = clock
        self.delivered = set(push.delivered)
        self._left = count
        self._done = done
        self._failed = failed
        self._partial = partial
        self._lock = threading.Lock()
        self._taken = time.monotonic()

    def ended(self, delivery):
        metrics.push_ended(delivery.subscriber, delivery.delivered,
                           time.monotonic() - self._taken)
        if delivery.delivered and self.push.due is not None:
            metrics.push_late(self._clock() - self.push.due)
        if not delivery.delivered:
            LOG.warning(
                'push failed: message %s of queue %s (project %s) to %s: '
                '%s after %d attempts, last status %s',
                self.push.message_id, self.push.queue, self.push.project,
                delivery.subscriber, delivery.reason, delivery.attempts,
                delivery.status)
            self._failed(self.push, delivery)
        with self._lock:
            self._left -= 1
            last = not self._left
            if delivery.delivered:
                self.delivered.add(delivery.subscriber)
        if last:
            self._done(self.push, tuple(self.attempts))
        elif delivery.delivered:
            self._partial(self)

    def attempted(self, attempt):
        with self._lock:
            self.attempts.append(attempt)

    def snapshot(self):
        """The subscribers that answered 2xx so far."""
        with self._lock:
            return frozenset(self.delivered)


class Dispatcher:
    """Pushes the due pushes of one delay data driver's store. ``wake``
    is set when a delivery ends (its push is to be told to the store)."""

    def __init__(self, data_driver, queue_controller, conf, clock=None,
                 monotonic=time.monotonic):
        self.store = data_driver.push_store
        self.messages = data_driver.message_controller
        self.subscriptions = data_driver.subscription_controller
        self.queues = queue_controller
        self.conf = conf
        settings = conf[opts.PUSH_GROUP]
        self.batch_size = settings.batch_size
        self.lease = settings.lease
        self.poll_interval = settings.poll_interval
        self.timeout = (settings.connect_timeout, settings.read_timeout)
        self.light = settings.light_http_client
        self.max_held = settings.max_held
        self.failed_retention = settings.failed_retention
        self.require_confirmation = conf.notification.require_confirmation
        self.clock = clock or data_driver.clock
        self.monotonic = monotonic
        self.slots = slots.Slots(settings.max_in_flight,
                                 settings.max_in_flight_per_subscriber,
                                 monotonic)
        self.wake = threading.Event()
        self.looked = None      # the time the last pass took pushes due by
        self._finished = collections.deque()
        self._partial = {}      # id(outcome) -> outcome, to record
        self._held = 0
        self._lock = threading.Lock()

    @property
    def held(self):
        """Pushes taken and not yet done."""
        with self._lock:
            return self._held

    def run_once(self):
        """Forget the pushes made since the last pass, then push one
        batch of the pushes due at ``looked`` (the clock read once, at
        the pass's start); return how many were taken."""
        self.flush()
        now = self.looked = self.clock()
        room = min(self.batch_size, self.max_held - self.held)
        if room <= 0:
            return 0
        # The lease runs from before the take (Swift's take is several
        # requests): the last moment an attempt may start and end
        # within it (half the lease, if shorter than the timeouts allow).
        deadline = self.monotonic() + max(
            self.lease - sum(self.timeout) - 1, self.lease / 2)
        taken = self.store.take(now, room, self.lease)
        with self._lock:
            self._held += len(taken)
        by_queue = collections.defaultdict(list)
        for push in taken:
            by_queue[push.project, push.queue].append(push)
        for (project, queue), pushes in by_queue.items():
            try:
                self._push(queue, project, pushes, deadline)
            except Exception:
                # Left taken: pushed again when the lease ends.
                LOG.exception('pushing %d messages of %s/%s failed',
                              len(pushes), project, queue)
                with self._lock:
                    self._held -= len(pushes)
        return len(taken)

    def flush(self):
        """Tell the store which pushes are done (with their attempts,
        for the history of messages that keep it), and which subscribers
        answered 2xx for the pushes that are not done yet."""
        made = []
        while self._finished:
            made.append(self._finished.popleft())
        with self._lock:
            partial, self._partial = self._partial, {}
        finished = {id(push) for push, _ in made}
        records = [(outcome.push, outcome.snapshot())
                   for outcome in partial.values()
                   if id(outcome.push) not in finished]
        if records:
            try:
                self.store.delivered(records)
            except Exception:
                LOG.exception('recording the subscribers of %d pushes '
                              'failed (a dispatcher that takes them after '
                              'this one may push them again)', len(records))
        if not made:
            return
        try:
            self.store.done([push for push, _ in made],
                            [attempts for _, attempts in made])
        except Exception:
            LOG.exception('forgetting %d pushes failed (they will be '
                          'pushed again)', len(made))
        with self._lock:
            self._held -= len(made)

    def drain(self, timeout):
        """Wait up to ``timeout`` seconds for the pushes taken to be
        done, telling the store; return how many are still held."""
        deadline = self.monotonic() + timeout
        self.flush()
        while self.held and self.monotonic() < deadline:
            self.wake.wait(min(0.1, max(0, deadline - self.monotonic())))
            self.wake.clear()
            self.flush()
        return self.held

    def _record_failed(self, push, delivery):
        """Keep a failed push where an operator can list and re-send it
        (``zaqar-delay-manage pushes``); a store error only logs."""
        record = dict(zip(pending.FAILED_FIELDS, (
            uuid.uuid4().hex, push.message_id, push.queue, push.project,
            delivery.subscriber, delivery.status, delivery.attempts,
            delivery.reason, int(self.clock()))))
        try:
            self.store.fail(record, self.failed_retention)
        except Exception:
            LOG.exception('recording the failed push %s failed', record)

    def _finish(self, push, attempts=()):
        self._finished.append((push, attempts))
        self.wake.set()

    def _delivered_to_some(self, outcome):
        # Recorded by the next pass (within ``poll_interval``), not at
        # once: a pass per answer would cost a busy dispatcher a store
        # request each.
        with self._lock:
            self._partial[id(outcome)] = outcome

    def subscribed(self, queue, project):
        """The queue's subscriptions now, and its retry policy."""
        found, marker = [], None
        while True:
            page = self.subscriptions.list(queue, project, marker=marker)
            for sub in next(page):
                if self.require_confirmation and not sub.get('confirmed',
                                                             True):
                    continue
                found.append(sub)
            marker = next(page)
            if not marker:
                break
        queue_policy = {}
        if found:
            queue_policy = self.queues.get(queue, project).get(
                '_retry_policy', {})
        return found, queue_policy

    def _push(self, queue, project, pushes, deadline):
        try:
            found = {m['id']: m for m in self.messages.bulk_get(
                queue, [p.message_id for p in pushes], project)}
            subscriptions, queue_policy = self.subscribed(queue, project)
        except errors.QueueDoesNotExist:
            found, subscriptions = {}, []   # nothing to push to
        for push in pushes:
            message = found.get(push.message_id)
            left = [sub for sub in subscriptions
                    if sub['subscriber'] not in push.delivered]
            if message is None or not left:
                self._finish(push)
                continue
            due = stored.due_of(message)
            if due is not None and due > self.clock():
                # Rescheduled since it was taken: its push waits for its
                # new due time (the store holds it then).
                with self._lock:
                    self._held -= 1
                continue
            outcome = _Outcome(push, len(left), self._finish,
                               self._record_failed, self._delivered_to_some,
                               self.clock)
            for sub in left:
                self.slots.start(slots.Delivery(
                    sub['subscriber'],
                    functools.partial(self._attempt, outcome, sub, queue,
                                      project, message, queue_policy,
                                      push.due),
                    policy.waits(policy.chosen(
                        (sub.get('options') or {}).get('_retry_policy'),
                        queue_policy)),
                    deadline, outcome.ended))

    def _attempt(self, outcome, subscription, *args):
        """``send``, noted in ``outcome`` (even when it raised)."""
        at, status = int(self.clock()), None
        try:
            verdict, status = self.send(subscription, *args)
        finally:
            outcome.attempted(pending.Attempt(
                at, subscription['subscriber'], status))
        return verdict, status

    def send(self, subscription, queue, project, message, queue_policy,
             due=None):
        """One attempt: (policy verdict, status or None). An attempt
        started before ``due`` (the push's due time) is counted early."""
        if due is not None and self.clock() < due:
            metrics.pushed_early()
            LOG.error('push of message %s of queue %s (project %s) '
                      'started %.3f s before it was due',
                      message['id'], queue, project, due - self.clock())
        url = subscription['subscriber']
        scheme = urllib.parse.urlsplit(url).scheme
        if scheme not in WEBHOOK:
            body = dict(payloads.payload(message),
                        Message_Type=upstream.NOTIFICATION)
            upstream.task(scheme).execute(subscription, [body],
                                          conf=self.conf,
                                          queue_retry_policy=queue_policy)
            return policy.DONE, None
        data, headers = payloads.webhook_request(subscription, queue,
                                                 message)
        try:
            status = webhook_http.post(url, data=data, headers=headers,
                                       timeout=self.timeout,
                                       light=self.light).status_code
        except requests.RequestException as exc:
            # A delivery that fails for good is logged at WARNING.
            LOG.debug('push to %s: %s', url, exc)
            status = None
        return policy.verdict(status), status

    def next_due(self):
        """When the earliest pending push is due, or None; None also
        when it is not due within ``poll_interval``, after which the
        runner looks again anyway."""
        return self.store.next_due(
            before=self.clock() + self.poll_interval)

    def watch(self, stop):
        """Have a store that tells when a push due earlier than every
        pending one is added set ``wake`` then, until ``stop`` is set."""
        watch = getattr(self.store, 'watch', None)
        if watch is not None:
            watch(self.wake, stop)
