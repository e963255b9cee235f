"""The names of every metric family zaqar-delay exports, in one place.

Names are given without the ``_total`` suffix prometheus_client adds to
counters; ``EXPOSED`` is every name as a scrape shows it (the dashboard
test checks its queries against it).
"""

PREFIX = 'zaqar_delay_'

# Read from the stores at scrape time (collector.StoreCollector).
QUEUE_MESSAGES = PREFIX + 'queue_messages'
QUEUE_OLDEST_DUE_AGE = PREFIX + 'queue_oldest_due_age_seconds'
QUEUE_NEXT_DUE = PREFIX + 'queue_next_due_timestamp_seconds'
QUEUES = PREFIX + 'queues'
PUSHES_PENDING = PREFIX + 'pushes_pending'
PUSHES_FAILED_KEPT = PREFIX + 'pushes_failed_kept'
STORE_UP = PREFIX + 'store_up'
STORE_SCRAPE = PREFIX + 'store_scrape_duration_seconds'
# Counted in the store by the claim and release requests themselves
# (redis.delay, mongodb.delay), read at scrape time.
CLAIM_LATENESS = PREFIX + 'claim_lateness_seconds'
EARLY_CLAIMS = PREFIX + 'early_claims'
RETRIES_BACKOFF = PREFIX + 'releases_with_backoff'
DEAD_LETTERED = PREFIX + 'dead_lettered'

# Counted by a dispatcher process (process.py).
PUSHES_SENT = PREFIX + 'pushes_sent'
PUSHES_FAILED = PREFIX + 'pushes_failed'
PUSH_DELIVERY = PREFIX + 'push_delivery_seconds'
PUSH_LATENESS = PREFIX + 'push_lateness_seconds'
EARLY = PREFIX + 'early_deliveries'
TICKS_POSTED = PREFIX + 'schedule_ticks_posted'
TICK_LATENESS = PREFIX + 'schedule_tick_lateness_seconds'
TICKS_MISSED = PREFIX + 'schedule_ticks_missed'

# Deliveries of EARLY's ``via`` label.
PUSH = 'push'
# How RETRIES_BACKOFF's messages were given back (its ``via`` label): by
# a release of their claim, or once their claim expired.
RELEASE, CLAIM_EXPIRY = 'release', 'claim_expiry'

# Message states of QUEUE_MESSAGES' ``state`` label.
DELAYED, READY, CLAIMED = 'delayed', 'ready', 'claimed'

EXPOSED = frozenset([
    QUEUE_MESSAGES, QUEUE_OLDEST_DUE_AGE, QUEUE_NEXT_DUE, QUEUES,
    PUSHES_PENDING, PUSHES_FAILED_KEPT, STORE_UP, STORE_SCRAPE,
    PUSHES_SENT + '_total', PUSHES_FAILED + '_total',
    PUSH_DELIVERY + '_bucket', PUSH_DELIVERY + '_sum',
    PUSH_DELIVERY + '_count', PUSH_LATENESS + '_bucket',
    PUSH_LATENESS + '_sum', PUSH_LATENESS + '_count', EARLY + '_total',
    TICKS_POSTED + '_total',
    TICK_LATENESS + '_bucket', TICK_LATENESS + '_sum',
    TICK_LATENESS + '_count', TICKS_MISSED + '_total',
    CLAIM_LATENESS + '_bucket', CLAIM_LATENESS + '_sum',
    CLAIM_LATENESS + '_count', EARLY_CLAIMS + '_total',
    RETRIES_BACKOFF + '_total', DEAD_LETTERED + '_total'])
