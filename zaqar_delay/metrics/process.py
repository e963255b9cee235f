"""What a dispatcher process counts as it pushes and ticks.

One registry per process (``REGISTRY``); the push dispatcher and the
schedules ticker call the functions below, which cost a counter
increment each. ``zaqar-delay-dispatcher --metrics-port N`` serves this
registry with the stores' collector added.
"""

import urllib.parse

import prometheus_client

from zaqar_delay.metrics import families as fam
from zaqar_delay.schedules import ticks as schedule_ticks

REGISTRY = prometheus_client.CollectorRegistry(auto_describe=True)

_SECONDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60,
            300, 900, 3600)

SENT = prometheus_client.Counter(
    fam.PUSHES_SENT, 'Pushes a subscriber took (a 2xx answer, or a '
    'mailto sent), by subscriber host.', ['subscriber_host'],
    registry=REGISTRY)
FAILED = prometheus_client.Counter(
    fam.PUSHES_FAILED, 'Pushes that failed for good (retries spent, '
    'refused, or out of the lease), by subscriber host.',
    ['subscriber_host'], registry=REGISTRY)
DELIVERY = prometheus_client.Histogram(
    fam.PUSH_DELIVERY, 'Seconds from taking a due push to the outcome '
    'of one subscriber\'s delivery (waits for a slot, attempts, '
    'retries).',
    buckets=_SECONDS, registry=REGISTRY)
LATENESS = prometheus_client.Histogram(
    fam.PUSH_LATENESS, 'Seconds from a push\'s due time to a '
    'subscriber\'s 2xx (or mailto sent); see doc/source/metrics.rst for '
    'a push taken again after a lease ended.',
    buckets=_SECONDS, registry=REGISTRY)
EARLY = prometheus_client.Counter(
    fam.EARLY, 'Deliveries started before the message was due: must '
    'stay 0.', ['via'], registry=REGISTRY)
EARLY.labels(fam.PUSH)     # exported as 0 from the start
TICKS = prometheus_client.Counter(
    fam.TICKS_POSTED, 'Schedule ticks posted as messages.',
    registry=REGISTRY)
TICKS_MISSED = prometheus_client.Counter(
    fam.TICKS_MISSED, 'Schedule ticks skipped: missed while no '
    'dispatcher ran (catch_up none or latest), or beyond max_catch_up.',
    registry=REGISTRY)
# Most ticks of one schedule a pass counts as missed (a cron schedule's
# are found one by one).
MISSED_COUNTED = 1000
TICK_LATENESS = prometheus_client.Histogram(
    fam.TICK_LATENESS, 'Seconds between a tick\'s time and its posting.',
    buckets=_SECONDS, registry=REGISTRY)


def host(subscriber):
    """The host of a subscriber URL (the scheme for mailto and others
    without one): a label that stays few-valued."""
    parts = urllib.parse.urlsplit(subscriber)
    return parts.hostname or parts.scheme or 'unknown'


def push_ended(subscriber, delivered, seconds):
    """A subscriber's push ended, ``seconds`` after it was taken."""
    (SENT if delivered else FAILED).labels(host(subscriber)).inc()
    DELIVERY.observe(seconds)


def push_late(seconds):
    """A subscriber took a push ``seconds`` after it was due."""
    LATENESS.observe(max(seconds, 0))


def pushed_early():
    """A push attempt started before its message was due."""
    EARLY.labels(fam.PUSH).inc()


def ticks_posted(now, ticks):
    """A ticker posted ``ticks`` (their unix times) at ``now``."""
    TICKS.inc(len(ticks))
    for tick in ticks:
        TICK_LATENESS.observe(max(now - tick, 0))


def ticks_planned(schedule, after, new_after, posted):
    """A pass moved ``schedule`` from ``after`` (None: new) to
    ``new_after``, posting the ticks ``posted``: count the ticks in
    between it skipped (O(1) for ``every``, O(ticks) up to
    ``MISSED_COUNTED`` for ``cron``)."""
    if after is None or new_after <= after:
        return
    if schedule.every:
        found = new_after // schedule.every - after // schedule.every
    else:
        found, tick = 0, after
        while found < MISSED_COUNTED:
            tick = schedule_ticks.next_after(schedule, tick)
            if tick is None or tick > new_after:
                break
            found += 1
    if found > len(posted):
        TICKS_MISSED.inc(found - len(posted))
