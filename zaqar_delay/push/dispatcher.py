"""The dispatcher: pushes what has come due through Zaqar's notifier.

It takes due pushes from a delay driver's store (``driver.push_store``:
``take``, ``done``, ``next_due``), reads their messages, pushes each to
the queue's subscriptions as they are at that moment, with Zaqar's own
notification tasks (webhook, mailto, trust; subscription ``options``;
the subscription's or queue's ``_retry_policy``), and then forgets them.

Taking is atomic in the store, so any number of dispatchers push each
message once while none dies. A taken push is held for ``[delay_push]
lease`` seconds: if its dispatcher dies before it is done, it is due
again then and another dispatcher pushes it (at least once; at most a
lease late). A push is done when each subscriber's task has ended (its
retries included), or at 80% of the lease if one has not; the next pass
does not wait for that. Each subscriber URL has its own threads, so a
slow or failing subscriber delays only its own pushes. An idle
dispatcher sleeps until the next pending push is due, or
``poll_interval`` seconds, whichever is first.
"""

import collections
import threading

from concurrent import futures
from oslo_log import log as logging
from zaqar.notification import notifier
from zaqar.storage import errors

from zaqar_delay.push import webhook_http

LOG = logging.getLogger(__name__)


class _PerSubscriber:
    """An executor with a thread pool per subscriber URL, that keeps the
    futures of what it was given: a slow or failing subscriber (whose
    task sleeps between retries) holds up only its own pushes."""

    def __init__(self, workers, initializer=None):
        self._workers = workers
        self._initializer = initializer
        self._pools = {}
        self._lock = threading.Lock()
        self.futures = []

    def submit(self, fn, subscription, *args, **kwargs):
        with self._lock:
            pool = self._pools.get(subscription['subscriber'])
            if pool is None:
                pool = self._pools[subscription['subscriber']] = (
                    futures.ThreadPoolExecutor(
                        self._workers, initializer=self._initializer))
        future = pool.submit(fn, subscription, *args, **kwargs)
        self.futures.append(future)
        return future


class Pusher(notifier.NotifierDriver):
    """Zaqar's notifier; ``push`` returns the futures of its tasks.

    With ``light_http``, its webhook tasks post through ``push.webhook_http``.
    """

    def __init__(self, *args, light_http=False, **kwargs):
        super().__init__(*args, **kwargs)
        if light_http:
            webhook_http.install()
        self.executor = _PerSubscriber(
            kwargs.get('max_notifier_workers', 10),
            webhook_http.use_here if light_http else None)
        self._lock = threading.Lock()

    def push(self, queue, messages, project):
        with self._lock:
            self.post(queue, messages, None, project)
            started = list(self.executor.futures)
            del self.executor.futures[:]
        return started


def payload(message):
    """What a subscriber gets: Zaqar's notification of a posted message
    (``body``, ``ttl``; the tasks add ``queue_name`` and
    ``Message_Type``), with the message's ``id``, so that a subscriber
    can tell a push made again after a lease from a new message."""
    return {'id': message['id'], 'body': message['body'],
            'ttl': message['ttl']}


class Dispatcher:
    """Pushes the due pushes of one delay data driver's store."""

    def __init__(self, data_driver, queue_controller, conf, clock=None):
        self.store = data_driver.push_store
        self.messages = data_driver.message_controller
        settings = conf['delay_push']
        self.batch_size = settings.batch_size
        self.lease = settings.lease
        self.poll_interval = settings.poll_interval
        self.clock = clock or data_driver.clock
        self.pusher = Pusher(
            subscription_controller=data_driver.subscription_controller,
            queue_controller=queue_controller,
            max_notifier_workers=conf.notification.max_notifier_workers,
            require_confirmation=conf.notification.require_confirmation,
            light_http=settings.light_http_client)

    def run_once(self):
        """Push one batch of due pushes; return how many were taken."""
        taken = self.store.take(int(self.clock()), self.batch_size,
                                self.lease)
        by_queue = collections.defaultdict(list)
        for push in taken:
            by_queue[push.project, push.queue].append(push)
        for (project, queue), pushes in by_queue.items():
            self._push(queue, project, pushes)
        return len(taken)

    def _push(self, queue, project, pushes):
        try:
            found = list(self.messages.bulk_get(
                queue, [p.message_id for p in pushes], project))
            started = found and self.pusher.push(
                queue, [payload(m) for m in found], project)
        except errors.QueueDoesNotExist:
            started = []    # nothing to push to
        except Exception:
            # Left taken: pushed again when the lease ends.
            LOG.exception('pushing %d messages of %s/%s failed',
                          len(pushes), project, queue)
            return
        if not started:
            self.store.done(pushes)
            return
        # Done once every subscriber's task has ended (its retries
        # included), never before: a dispatcher that dies with a push not
        # yet made leaves it taken, to be pushed again when its lease
        # ends. A task that outlasts the lease can have its pushes taken
        # and made again by then (at least once). The next pass does not
        # wait for it.
        threading.Thread(target=self._finish, args=(pushes, started),
                         daemon=True).start()

    def _finish(self, pushes, started):
        futures.wait(started)
        try:
            self.store.done(pushes)
        except Exception:
            LOG.exception('forgetting %d pushes failed (they will be '
                          'pushed again)', len(pushes))

    def wait(self):
        """Seconds to sleep before the next pass."""
        due = self.store.next_due()
        if due is None:
            return self.poll_interval
        return min(self.poll_interval, max(0.0, due - self.clock()))

    def run(self, stop):
        """Pass after pass until the ``stop`` event is set."""
        while not stop.is_set():
            try:
                if self.run_once() >= self.batch_size:
                    continue    # more may be due already
                pause = self.wait()
            except Exception:
                LOG.exception('push dispatcher pass failed')
                pause = self.poll_interval
            stop.wait(pause)


_in_server = {}
_in_server_lock = threading.Lock()


def start_in_server(data_driver, queue_controller, conf):
    """Start one dispatcher thread for ``data_driver`` in this process."""
    with _in_server_lock:
        if id(data_driver) in _in_server:
            return _in_server[id(data_driver)]
        stop = threading.Event()
        dispatcher = Dispatcher(data_driver, queue_controller, conf)
        thread = threading.Thread(target=dispatcher.run, args=(stop,),
                                  name='zaqar-delay-dispatcher', daemon=True)
        thread.start()
        _in_server[id(data_driver)] = (thread, stop)
        return thread, stop
