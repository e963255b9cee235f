"""``zaqar-delay-manage``: operator commands for the delay drivers.

``<backend> migrate``, ``export``, ``pushes pending|failed|resend``,
``schedules``, ``history`` and ``replay`` (``--help`` gives each one's
arguments) read the store the config files name, or ``--uri``;
``history``, ``replay`` and ``export --history`` find a pooled queue's
store in the pool catalog. Output goes to stdout (or ``export
--output``); the exit status is 2 for a bad command line, 1 when not
all that was asked was done (doc/source/admin.rst; each command: the
page of its feature)."""

import argparse
import functools
import sys

from oslo_config import cfg
from oslo_log import log as logging
from oslo_serialization import jsonutils

from zaqar_delay.cmd import dispatcher as dispatcher_cmd
from zaqar_delay.cmd import export as export_cmd
from zaqar_delay.cmd import failure
from zaqar_delay import errors
from zaqar_delay.cmd import history as history_cmd
from zaqar_delay.cmd import noise
from zaqar_delay.cmd import queues
from zaqar_delay.cmd import reach
from zaqar_delay.history import events as history_events
from zaqar_delay import opts
from zaqar_delay.push import failed
from zaqar_delay.schedules import definition
from zaqar_delay.schedules import listing
from zaqar_delay.storage import common
from zaqar_delay.storage import services


@functools.lru_cache(maxsize=None)
def targets():
    """{backend: (delay driver, upstream driver)} of the stores
    ``migrate`` switches: each of this package's drivers that names a
    ``migrate_class``, by the upstream driver of its store (the first
    name in order when two share one: ``mongodb.delay``)."""
    found = {}
    for name in services.offering('migrate'):
        upstream = services.service(name, 'migrate').upstream
        found.setdefault(upstream, (name, upstream))
    return found


def _migrate(args, out):
    dry = ' (dry run: nothing written)' if args.dry_run else ''
    store = services.service(args.backend, 'migrate').connect(
        args.config_file, args.uri, args.database, args.partitions)
    for line in store.rename(args.to == store.upstream, args.dry_run):
        out.write('%s%s\n' % (line, dry))
    places = store.places()
    if args.to == store.upstream:
        for where, place in places:
            out.write('%s: dropped %s%s\n' % (
                where, store.drop_index(place, args.dry_run), dry))
        out.write('the store is ready for %s%s\n' % (args.to, dry))
        return 0
    total = 0
    for where, place in places:
        done = common.Counts(0, 0, 0, 0)
        for counts in store.reindex(place, args.batch, args.dry_run):
            done = common.Counts(*map(sum, zip(done, counts)))
            out.write('%s: %d messages indexed so far%s\n' % (
                where, sum(done), dry))
        out.write('%s: ready %d, waiting %d, claimed %d, gone %d%s\n' % (
            (where,) + done + (dry,)))
        total += sum(done)
    out.write('indexed %d messages for %s%s\n' % (total, args.to, dry))
    return 0


def _runner(args):
    """The runner of the config files' store (``build``)."""
    conf = cfg.ConfigOpts()
    logging.register_options(conf)     # drivers read [DEFAULT] debug
    opts.register_opts(conf)
    conf(args=[], project='zaqar', default_config_files=args.config_file)
    return dispatcher_cmd.build(conf)


def _pushes(args, out):
    pusher = getattr(_runner(args), 'pusher', None)
    if pusher is None:
        raise errors.UsageFailure('pushes: give the zaqar.conf of one '
                                  'pool\'s store (pooling = False)')
    if args.action == 'pending':
        records = pusher.store.pending(args.limit)
        for record in records:
            out.write(jsonutils.dumps(record, sort_keys=True) + '\n')
        sys.stderr.write('%d pending pushes\n' % len(records))
        return 0
    records = pusher.store.failed(args.limit)
    if args.action == 'failed':
        for record in records:
            out.write(jsonutils.dumps(record, sort_keys=True) + '\n')
        sys.stderr.write('%d failed pushes\n' % len(records))
        return 0
    if args.key:
        records = [r for r in records if r['key'] in set(args.key)]
    results = failed.resend(pusher, records)
    for record, outcome, status in results:
        out.write('%s %s %s/%s -> %s: %s%s\n' % (
            record['key'], record['message_id'], record['project'] or '',
            record['queue'], record['subscriber'], outcome,
            '' if status is None else ' (%s)' % status))
    return 0 if all(outcome != failed.REFUSED
                    for _, outcome, _ in results) else 1


def _schedules(args, out):
    ticker = getattr(_runner(args), 'ticker', None)
    if ticker is None:
        raise errors.UsageFailure('schedules: give the zaqar.conf of one '
                                  'store that keeps schedules')
    if args.queue is not None:
        queues.metadata(ticker.queues, args.queue, args.project)
    count = listing.write(ticker, out, args.queue, args.project,
                          args.limit)
    if args.queue is not None and not count:
        raise errors.CommandFailure(
            '%s has no schedules (its %s metadata is missing or empty)' % (
                queues.name(args.queue, args.project), definition.KEY))
    sys.stderr.write('%d schedules\n' % count)
    return 0


def parser():
    top = argparse.ArgumentParser(prog='zaqar-delay-manage',
                                  description=__doc__.splitlines()[0])
    top.add_argument('--config-file', action='append', default=[],
                     help='zaqar.conf to read the store from')
    top.add_argument('--uri', help='store URI (overrides --config-file)')
    top.add_argument('--database', help='MongoDB database name prefix')
    top.add_argument('--partitions', type=int,
                     help='MongoDB message partitions')
    backends = top.add_subparsers(dest='backend', required=True)
    for backend, choices in targets().items():
        sub = backends.add_parser(backend, help='%s store commands' % backend)
        actions = sub.add_subparsers(dest='action', required=True)
        mig = actions.add_parser(
            'migrate', help='switch a live store between %s' %
            ' and '.join(choices))
        mig.add_argument('--to', required=True, choices=choices,
                         help='the driver every zaqar-server now uses')
        mig.add_argument('--dry-run', action='store_true',
                         help='count and report, write nothing')
        mig.add_argument('--batch', type=int, default=1000,
                         help='messages per atomic step (default 1000)')
        mig.set_defaults(func=_migrate)
    exp = backends.add_parser(
        'export', help='write the messages of queues as JSON lines (the '
        'audit job\'s snapshot)')
    exp.add_argument('--project', action='append', required=True,
                     help='project to export (repeat for more)')
    exp.add_argument('--queue', action='append',
                     help='queue to export (repeat; default: every queue '
                     'of each project)')
    exp.add_argument('--output', default='-',
                     help='file to write (default: standard output)')
    exp.add_argument('--batch', type=int, default=1000,
                     help='messages read per request (default 1000)')
    exp.add_argument('--with-body', action='store_true',
                     help='include message bodies')
    exp.add_argument('--format', choices=('json', 'parquet'),
                     help='JSON lines or Parquet (default: parquet when '
                     '--output ends in .parquet; Parquet needs pyspark)')
    exp.add_argument('--history', action='store_true',
                     help='write the kept events of queues with '
                     '_history_ttl (zaqar-delay-audit --history)')
    exp.add_argument('--since', type=history_events.parse_time,
                     help='with --history: events from this time')
    exp.add_argument('--until', type=history_events.parse_time,
                     help='with --history: events up to this time')
    exp.set_defaults(func=export_cmd.run)
    pushes = backends.add_parser(
        'pushes', help='pending and failed pushes: list them, send failed '
        'ones again')
    push_actions = pushes.add_subparsers(dest='action', required=True)
    for action, text in (('pending', 'list pending pushes, earliest due '
                          'first (JSON lines)'),
                         ('failed', 'list failed pushes (JSON lines)'),
                         ('resend', 'send failed pushes again, once')):
        sub = push_actions.add_parser(action, help=text)
        sub.add_argument('--limit', type=int, default=1000,
                         help='most records read (default 1000)')
        if action == 'resend':
            sub.add_argument('--key', action='append',
                             help='the record to send again (repeat; '
                             'default: every record read)')
        sub.set_defaults(func=_pushes, batch=1)
    sched = backends.add_parser(
        'schedules', help='list schedules with their last and next tick')
    sched.add_argument('queue', nargs='?', help='one queue (default: all)')
    sched.add_argument('--project', help='the queue\'s project')
    sched.add_argument('--limit', type=int, default=1000,
                       help='most queues read (default 1000)')
    sched.set_defaults(func=_schedules, batch=1)
    history_cmd.add_parsers(backends)
    return top


def _usage(args):
    """What is wrong with the arguments together (None: nothing)."""
    needs_conf = args.backend in ('export', 'pushes', 'schedules',
                                  'history', 'replay')
    if not args.config_file and (needs_conf or not args.uri):
        return 'give --config-file' + ('' if needs_conf else ' or --uri')
    if args.batch < 1:
        return '--batch must be at least 1'
    if args.backend == 'export':
        return export_cmd.usage(args)
    return None


def _run(args, out):
    uri = args.uri if args.backend in targets() else None
    reach.check(reach.stores(reach.zaqar_conf(args.config_file), uri,
                             args.backend))
    return args.func(args, out)


def main(argv=None, out=sys.stdout):
    """Run the command of ``argv``; its exit status (see
    ``failure``)."""
    args = parser().parse_args(argv)
    problem = _usage(args)
    if problem:
        parser().error(problem)
    noise.quiet_profiler()
    return failure.run('zaqar-delay-manage', _run, args, out)


if __name__ == '__main__':
    sys.exit(main())
