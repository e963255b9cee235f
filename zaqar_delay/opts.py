"""Every option of zaqar-delay, in one place.

``list_opts()`` is the ``oslo.config.opts`` entry point used by
oslo-config-generator (namespace ``zaqar_delay``).
"""

import copy

from oslo_config import cfg
from zaqar.conf import transport

from zaqar_delay import delay

GROUP = 'delay'

ttl_shorter_than_delay = cfg.StrOpt(
    'ttl_shorter_than_delay', default=delay.REJECT, choices=[
        (delay.REJECT, 'Refuse the post with a 400 error that names '
                       'the message\'s ttl and delay.'),
        (delay.ACCEPT, 'Store the message; it expires while it waits '
                       'and is never delivered.'),
    ],
    help='What to do with a posted message whose ttl ends before its '
         'delay does (ttl <= delay), so that it could never be '
         'claimed.')

promote_batch_size = cfg.IntOpt(
    'promote_batch_size', default=100, min=1, max=10000,
    help='Work bound of one claim or list call: at most this many '
         'messages that came due, and this many whose claim expired, '
         'are moved to the ready index per call, and at most this many '
         'skipped entries are examined. Larger values catch up faster '
         'after a burst of due messages; smaller ones keep each '
         'server-side script shorter.')

redis_server_clock = cfg.BoolOpt(
    'redis_server_clock', default=False,
    help='redis.delay only: take the time from the redis server '
         '(TIME, one more round trip per request) instead of from the '
         'zaqar-server host, for due times, claim expiries and push '
         'due times. With the host\'s clock (the default, as Zaqar), '
         'zaqar-server hosts whose clocks are s seconds apart can '
         'deliver a message up to s seconds early; with the server\'s, '
         'every host judges time alike.')

max_history_ttl = cfg.IntOpt(
    'max_history_ttl', default=7 * 86400, min=1,
    help='Largest _history_ttl a queue may have: the most seconds a '
         'message\'s history (the message as posted and what happened to '
         'it) is kept after each event. A queue PUT or metadata PATCH '
         'with a larger value is refused with a 400.')

IGNORE = 'ignore'
APPLY = 'apply'

delay_without_default = cfg.StrOpt(
    'delay_without_default', default=IGNORE, choices=[
        (IGNORE, 'As Zaqar\'s API: a queue without '
                 '_default_message_delay is not a delayed queue, and a '
                 'message\'s delay is dropped there (after it is checked).'),
        (APPLY, 'A message\'s own delay applies on every queue.'),
    ],
    help='wsgi.delay transport only: whether a message\'s delay applies '
         'on a queue without _default_message_delay (a bad delay gets a '
         '400 on every queue either way; a due time always applies).')

ALL_OPTS = [ttl_shorter_than_delay, promote_batch_size, redis_server_clock,
            max_history_ttl, delay_without_default]

# Beside Zaqar's [drivers:message_store:redis] (uri, reconnects): what
# only redis.delay does with its store. A pool's options of the same
# names (given when the pool is created) land in this group too.
REDIS_GROUP = 'drivers:message_store:redis.delay'


def _wait_opts(replicas_help, timeout_help):
    """A redis.delay store's ``wait_replicas`` and ``wait_timeout_ms``
    (WAIT after each write), with these help texts."""
    return [
        cfg.IntOpt('wait_replicas', default=0, min=0, max=16,
                   help=replicas_help),
        cfg.IntOpt('wait_timeout_ms', default=50, min=1, max=60000,
                   help=timeout_help),
    ]


REDIS_OPTS = _wait_opts(
    'Replicas that must hold a write before it is acknowledged. '
    'With N > 0, every write (messages, claims, pushes, schedules, '
    'replays, the queue stage\'s writes) is followed by WAIT N on '
    'the same connection; a write not replicated in time fails the '
    'request with a 503 that the client may retry, so that a post, '
    'claim or delete that was answered with success survives a '
    'Sentinel failover. With 0 (Zaqar\'s behaviour), a write '
    'acknowledged by the primary alone is lost if the primary dies '
    'before sending it to a replica. Keep N below the number of '
    'replicas, or writes fail while one replica is down.',
    'Milliseconds a write waits for [drivers:message_store:'
    'redis.delay] wait_replicas replicas. Must be below the '
    'socket_timeout of the redis URI (0.1 s unless the URI says '
    'otherwise), or the driver refuses to start.')

# The same two options for a redis.delay management store, which may be
# on another redis server than the messages, with other replicas.
MANAGEMENT_GROUP = 'drivers:management_store:redis.delay'

MANAGEMENT_OPTS = _wait_opts(
    'Replicas that must hold a queue record write (create, metadata, '
    'delete) of the redis.delay management store before it is '
    'acknowledged: WAIT N after each, on the same connection, a 503 '
    'when not replicated in time. 0: Zaqar\'s behaviour.',
    'Milliseconds a queue record write waits for [drivers:'
    'management_store:redis.delay] wait_replicas replicas. Must be '
    'below the socket_timeout of the management store\'s URI (0.1 s '
    'unless the URI says otherwise), or the driver refuses to '
    'start.')

PUSH_GROUP = 'delay_push'

PUSH_OPTS = [
    cfg.BoolOpt('dispatch_in_server', default=True, help=(
        'Run a push dispatcher thread in each zaqar-server process that '
        'uses zaqar-delay\'s notifier stage (it starts when the server '
        'builds its message pipeline; with pooling, one per pool). Turn '
        'it off to run '
        'zaqar-delay-dispatcher processes instead; both may run at '
        'once: each due push is taken by one of them.')),
    cfg.FloatOpt('poll_interval', default=0.5, min=0.05, max=60, help=(
        'Longest sleep of an idle dispatcher, in seconds. A dispatcher '
        'sleeps until the next pending push is due or this long, '
        'whichever is first; a message posted meanwhile with an earlier '
        'due time is therefore pushed at most this late.')),
    cfg.IntOpt('batch_size', default=100, min=1, max=10000,
               help='Most due pushes a dispatcher takes at once.'),
    cfg.IntOpt('lease', default=300, min=1, max=86400, help=(
        'Seconds a dispatcher holds the pushes it took. A push is done '
        'when every subscriber has answered 2xx or its retries ended; '
        'retries that could not end within the lease are not made (the '
        'subscriber\'s push is logged as failed), so a live dispatcher '
        'never sends a message twice to a subscriber. A push whose '
        'dispatcher died is taken again when its lease ends and sent to '
        'every subscriber: at most this many seconds late. The default '
        'covers Zaqar\'s default retry policy (3 minutes of waits); '
        'keep it well above connect_timeout + read_timeout.')),
    cfg.FloatOpt('connect_timeout', default=5, min=0.1, max=300, help=(
        'Seconds a webhook push waits for its connection.')),
    cfg.FloatOpt('read_timeout', default=30, min=0.1, max=3600, help=(
        'Seconds a webhook push waits for the answer once connected; '
        'no answer by then is retried as a failed connection is.')),
    cfg.IntOpt('max_in_flight', default=50, min=1, max=10000, help=(
        'Most push attempts a dispatcher makes at once (its threads).')),
    cfg.IntOpt('max_in_flight_per_subscriber', default=10, min=1,
               max=10000, help=(
                   'Most push attempts a dispatcher makes at once to one '
                   'subscriber URL: a subscriber that hangs holds no '
                   'more threads than this.')),
    cfg.IntOpt('max_held', default=100000, min=1, help=(
        'Most pushes a dispatcher holds taken and not yet done (waiting '
        'for a slot or a retry); it takes no more until some are done.')),
    cfg.IntOpt('failed_retention', default=7 * 86400, min=60, help=(
        'Seconds a failed push (a subscriber whose retries were spent, '
        'or that refused it) is kept for zaqar-delay-manage pushes '
        'failed|resend.')),
    cfg.BoolOpt('light_http_client', default=True, help=(
        'Make a webhook push to a plain http:// URL (no credentials in '
        'it, no proxy from the environment) with Python\'s http.client '
        'instead of requests: the same request, a connection per push, '
        'at about a third of the CPU. https:// URLs, redirects and '
        'proxies still go through requests. Turn it off to push '
        'everything through requests.')),
]

METRICS_GROUP = 'delay_metrics'

METRICS_OPTS = [
    cfg.IntOpt('max_queues', default=1000, min=0, help=(
        'Most queues of a store (of each pool, when pooled) given '
        'per-queue series at a scrape, in the store\'s order: with '
        'thousands of queues, the series count stays bounded. '
        'zaqar_delay_queues{which="holding"} tells how many there '
        'are.')),
    cfg.ListOpt('queues', default=[], help=(
        'Allow-list of the queues given per-queue series, as '
        '``project/queue`` fnmatch patterns (``*/orders.*``, '
        '``tenant1/*``; a queue without project is ``/name``). '
        'Empty: every queue, up to max_queues.')),
    cfg.HostAddressOpt('host', default='127.0.0.1', help=(
        'Address the metrics HTTP server binds to '
        '(zaqar-delay-exporter, zaqar-delay-dispatcher '
        '--metrics-port): the loopback interface unless set; 0.0.0.0 '
        'for every interface, so that a Prometheus on another host can '
        'scrape it.')),
    cfg.PortOpt('port', default=9727, help=(
        'Port of zaqar-delay-exporter\'s HTTP server (unless '
        '--port is given).')),
]

# Zaqar's own option, described for the configuration reference of the
# delay drivers; the option registered is always Zaqar's.
_max_message_delay_doc = copy.deepcopy(transport.max_message_delay)
_max_message_delay_doc.help = (
    'Largest delay, in seconds, a message may have, and largest '
    '_default_message_delay a queue may have. Zaqar checks it at the API; '
    'the zaqar-delay storage drivers check it again, so a message '
    'that reaches storage by another path obeys it too. Delays of any '
    'size up to this maximum cost the same to claim and list.')


def register_opts(conf):
    """Register zaqar-delay's options, and the delay and ttl limits it
    enforces."""
    conf.register_opts(ALL_OPTS, group=GROUP)
    conf.register_opts(PUSH_OPTS, group=PUSH_GROUP)
    conf.register_opts(METRICS_OPTS, group=METRICS_GROUP)
    conf.register_opt(transport.max_message_delay, group=transport.GROUP_NAME)
    conf.register_opt(transport.max_message_ttl, group=transport.GROUP_NAME)


# A pool's URI, which Zaqar sets in REDIS_GROUP (never zaqar.conf): once
# the group is registered, Zaqar sets only the options it has, so this
# one must be there or a pool's driver would not get its URI.
_POOL_URI = cfg.StrOpt('uri', secret=True,
                       help='A redis.delay pool\'s URI, set by Zaqar.')


def register_management_opts(conf):
    """Register ``MANAGEMENT_OPTS`` (the redis.delay management store
    does)."""
    for opt in MANAGEMENT_OPTS:
        try:
            conf.register_opt(opt, group=MANAGEMENT_GROUP)
        except cfg.DuplicateOptError:
            pass


def register_redis_opts(conf):
    """Register the ``redis.delay`` options (the redis driver does),
    one at a time: when a pool's options name one, Zaqar has registered
    it already (with the pool's value as its default), and that one is
    kept."""
    for opt in REDIS_OPTS + [_POOL_URI]:
        try:
            conf.register_opt(opt, group=REDIS_GROUP)
        except cfg.DuplicateOptError:
            pass


def list_opts():
    """Return the options of zaqar-delay for oslo-config-generator.

    ``[transport] max_message_delay`` belongs to Zaqar; it is listed here
    because the delay drivers enforce it in storage as well as at the API:
    it is the one maximum delay an operator sets.

    :returns: a list of ``(group, [options])`` pairs
    """
    return [(GROUP, ALL_OPTS), (PUSH_GROUP, PUSH_OPTS),
            (METRICS_GROUP, METRICS_OPTS), (REDIS_GROUP, REDIS_OPTS),
            (MANAGEMENT_GROUP, MANAGEMENT_OPTS),
            (transport.GROUP_NAME, [_max_message_delay_doc])]
