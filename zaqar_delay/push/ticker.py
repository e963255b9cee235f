"""The tick pass: posts schedules' ticks, beside every push pass.

A pass takes the queues due in the store's schedule index
(``base.ScheduleStore``), each for a lease, reads each one's
``_schedules`` metadata, posts the ticks ``ticks.plan`` gives and
records the new afters and the next look. A tick's message carries the
identity ``schedule <name> <tick>`` (``dedup.IDENTITY``), so a tick
posted twice is stored once while its message lives. Why no tick is
lost or doubled, and the cost: doc/source/schedules.rst.
"""

from concurrent import futures
import uuid

from oslo_log import log as logging
from zaqar.conf import transport
from zaqar.storage import errors

from zaqar_delay import dedup
from zaqar_delay import delay
from zaqar_delay import opts
from zaqar_delay.metrics import process as metrics
from zaqar_delay.schedules import definition
from zaqar_delay.schedules import ticks

LOG = logging.getLogger(__name__)

# The client id of the messages schedules post.
CLIENT_ID = str(uuid.uuid5(uuid.NAMESPACE_URL, 'zaqar-delay:schedules'))
POST_BATCH = 100    # messages in one post (catch_up: all)
# The most seconds a pass holds a queue: a pass is a few requests, and a
# queue whose dispatcher died waits this long (or [delay_push] lease, if
# shorter).
LEASE = 30
BATCHES = 10        # takes in one pass, at most (then pushes go on)
WORKERS = 8         # queues of one take worked on at once (I/O bound)


def message(schedule, tick):
    """The message a schedule posts for ``tick``: its body carries the
    schedule's name, the tick time (ISO 8601 UTC) and the schedule's
    body."""
    return {'ttl': schedule.ttl,
            'body': {'schedule': schedule.name, 'tick': delay.iso(tick),
                     'body': schedule.body},
            dedup.IDENTITY: 'schedule %s %d' % (schedule.name, tick)}


def for_dispatcher(data_driver, queue_controller, conf):
    """The Ticker a runner runs beside its push pass (its
    ``[delay_push] batch_size``; a lease of ``LEASE`` seconds, or
    ``[delay_push] lease`` if shorter), or None when the driver keeps no
    schedule index."""
    if getattr(data_driver, 'schedule_class', None) is None:
        return None
    settings = conf[opts.PUSH_GROUP]
    return Ticker(data_driver, queue_controller, min(settings.lease, LEASE),
                  settings.batch_size)


def _log_missed(queue, project, schedule, after, now, new, due):
    """Log (INFO) the ticks a pass skipped as missed, if any."""
    if after is None or new <= after:
        return
    first = ticks.next_after(schedule, after)
    if first is not None and first < (due[0] if due else new + 1):
        LOG.info('schedule %s of %s/%s: ticks from %d to %d missed '
                 '(catch_up %s; pass at %d)', schedule.name, project,
                 queue, first, due[0] - 1 if due else new,
                 schedule.catch_up, now)


class Ticker:
    """Posts the due ticks of one delay data driver's schedules."""

    def __init__(self, data_driver, queue_controller, lease, batch_size,
                 clock=None):
        self.store = data_driver.schedule_store
        self.messages = data_driver.message_controller
        self.queues = queue_controller
        self.lease = lease
        self.batch_size = batch_size
        self.clock = clock or data_driver.clock
        self.max_ttl = data_driver.conf[transport.GROUP_NAME].max_message_ttl
        self.up = None      # the now of this ticker's first pass
        self._workers = None

    def run_once(self):
        """Post the ticks of the queues due now, ``batch_size`` queues a
        take, up to ``BATCHES`` takes; return how many queues were taken.
        A queue whose pass fails stays taken until its lease ends, then
        is taken again; a failed take is logged."""
        count = 0
        for _ in range(BATCHES):
            # Each take's lease counts from just before it.
            now = int(self.clock())
            if self.up is None:
                self.up = now
            try:
                taken = self.store.take(now, self.batch_size, self.lease)
                if taken:
                    self._batch(taken, now)
            except Exception:
                LOG.exception('the schedule pass failed; the queues it '
                              'took are due again in %d s', self.lease)
                break
            count += len(taken)
            if len(taken) < self.batch_size:
                break
        return count

    def _pool(self):
        if self._workers is None:
            self._workers = futures.ThreadPoolExecutor(
                WORKERS, thread_name_prefix='zaqar-delay-schedules')
        return self._workers

    def _batch(self, taken, now):
        """One take's queues: their afters in one read, each queue's
        ticks posted (``WORKERS`` at a time), then what was done written
        in one write."""
        olds = self.store.afters_of(taken)
        done = self._pool().map(self._tick_logged, taken, olds,
                                [now] * len(taken))
        records = [(queue, project, afters, look, now + self.lease)
                   for (queue, project), (afters, look) in zip(
                       taken, done) if afters is not None]
        # When the afters are recorded, the posts acknowledged: a pass
        # that comes at most ticks.LATE later is on time (ticks.plan).
        passed = int(self.clock())
        for _, _, afters, _, _ in records:
            if afters:
                afters[ticks.PASSED] = passed
        recorded = self.store.advance_all(records)
        for (queue, project, _, _, held), done in zip(records, recorded):
            if not done:
                # Its posts stand (once per tick); the next pass, from
                # the lease's end, posts them again and goes on.
                LOG.info('schedules of %s/%s: the pass (at %d) ended at '
                         '%d, past its lease (to %d): not recorded',
                         project, queue, now, passed, held)

    def _tick_logged(self, taken, old, now):
        queue, project = taken
        try:
            return self.tick(queue, project, old, now)
        except Exception:
            LOG.exception('schedules of %s/%s: the pass failed; again in '
                          '%d s', project, queue, self.lease)
            return None, None

    def tick(self, queue, project, old, now):
        """Post one queue's due ticks at ``now``, its schedules' afters
        being ``old``; return (new afters, next look or None). Reads the
        queue's metadata once (the post does not read it again)."""
        try:
            metadata = self.queues.get_metadata(queue, project)
        except errors.QueueDoesNotExist:
            metadata = {}
        schedules = definition.of_queue(metadata, self.max_ttl)
        afters, posts = {}, []
        defined = None
        if any(ticks.key(schedule) not in old for schedule in schedules):
            # Read after the metadata: when that version (or a later
            # one) was set. New schedules start then.
            defined = self.store.defined(queue, project)
        for schedule in schedules:
            after = old.get(ticks.key(schedule))
            if after is None and defined is not None:
                after = defined - 1
            elif after is None:
                # Kept by name before the schedules were last set.
                after = old.get(schedule.name)
            due, afters[ticks.key(schedule)] = ticks.plan(
                schedule, after, now, old.get(ticks.PASSED), self.lease,
                self.up)
            metrics.ticks_planned(schedule, after,
                                  afters[ticks.key(schedule)], due)
            _log_missed(queue, project, schedule, after, now,
                        afters[ticks.key(schedule)], due)
            if due:
                posts += [message(schedule, tick) for tick in due]
                metrics.ticks_posted(now, due)
        # One post for the queue's schedules (most often one request),
        # with the metadata just read.
        for start in range(0, len(posts), POST_BATCH):
            self.messages.post(queue, posts[start:start + POST_BATCH],
                               CLIENT_ID, project, metadata=metadata)
        if afters and ticks.DEFINED in old:
            afters[ticks.DEFINED] = old[ticks.DEFINED]  # kept, if there
        return afters, ticks.next_look(schedules, afters)

    def next_due(self):
        """When the earliest queue is due (or its lease ends), or None
        (also when the store does not answer: logged)."""
        try:
            return self.store.next_due()
        except Exception:
            LOG.exception('reading the next schedule look failed')
            return None
