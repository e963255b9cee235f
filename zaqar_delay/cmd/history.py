"""``zaqar-delay-manage history`` and ``replay``: a queue's kept events,
and its messages posted again (doc/source/history.rst).

The queue must exist (``queues.metadata``). ``history`` writes the
events, oldest first, then their count on stderr; a queue that has none
and no ``_history_ttl`` keeps no history: that is a failure, not an
empty answer.
"""

import sys

from oslo_serialization import jsonutils

from zaqar_delay import delay
from zaqar_delay import errors
from zaqar_delay.cmd import queues
from zaqar_delay.history import events as history_events
from zaqar_delay.history import replay as history_replay
from zaqar_delay.storage import history as stored

TTL_KEY = '_history_ttl'


def _reader(found, queue, project):
    try:
        return stored.reader(found, queue, project)
    except errors.HistoryError as exc:
        raise errors.CommandFailure(str(exc)) from None


def show(args, out):
    """The ``history`` command."""
    found = stored.stores(args.config_file)
    metadata = queues.metadata(found.control.queue_controller, args.queue,
                               args.project)
    kept = _reader(found, args.queue, args.project)
    count = 0
    for event in history_events.select(
            kept.events(args.queue, args.project, args.since, args.until),
            message_id=args.message, kind=args.kind):
        out.write((jsonutils.dumps(history_events.as_json(event),
                                   sort_keys=True) if args.json
                   else history_events.as_line(event)) + '\n')
        count += 1
    if not count and TTL_KEY not in metadata:
        raise errors.CommandFailure('%s keeps no history: set its %s metadata '
                                    'first' % (queues.name(args.queue,
                                                           args.project),
                                               TTL_KEY))
    sys.stderr.write('%d events\n' % count)
    return 0


def replay(args, out):
    """The ``replay`` command: a range whose end comes before its start
    is a usage error; a queue that keeps no history (no events, no
    ``_history_ttl``) a failure; a range with nothing posted says so."""
    if args.since > args.until:
        raise errors.UsageFailure('--since (%s) is after --until (%s)' % (
            delay.iso(args.since), delay.iso(args.until)))
    found = stored.stores(args.config_file)
    metadata = queues.metadata(found.control.queue_controller, args.queue,
                               args.project)
    try:
        replayer = stored.replayer(args.config_file, args.queue,
                                   args.project, args.to)
    except errors.HistoryError as exc:
        raise errors.CommandFailure(str(exc)) from None
    count = 0
    for done in replayer.replay(args.queue, args.project, args.since,
                                args.until, args.to or args.queue,
                                args.delay, args.dry_run):
        out.write(history_replay.as_line(done) + '\n')
        count += 1
    if not count and TTL_KEY not in metadata:
        raise errors.CommandFailure(
            '%s keeps no history: nothing to replay (set its %s metadata '
            'first)' % (queues.name(args.queue, args.project), TTL_KEY))
    if not count:
        sys.stderr.write('no message was posted to %s from %s to %s\n' % (
            queues.name(args.queue, args.project),
            delay.iso(args.since), delay.iso(args.until)))
    return 0


def add_parsers(commands):
    """Add ``history`` and ``replay`` to ``commands`` (subparsers)."""
    time = history_events.parse_time
    show_parser = commands.add_parser(
        'history', help='what happened to the messages of a queue with '
        '_history_ttl')
    again = commands.add_parser('replay', help='post the messages posted '
                                'to a queue in a time range again, once')
    for sub in (show_parser, again):
        sub.add_argument('queue')
        sub.add_argument('--project', help='the queue\'s project id '
                         '(default: the queue without a project)')
    show_parser.add_argument('--since', type=time, help='from this time')
    show_parser.add_argument('--until', type=time, help='to this time')
    show_parser.add_argument('--message', help='only this message id')
    show_parser.add_argument('--kind', choices=history_events.KINDS,
                             help='only events of this kind')
    show_parser.add_argument('--json', action='store_true',
                             help='JSON lines instead of a table')
    show_parser.set_defaults(func=show, batch=1)
    again.add_argument('--since', type=time, required=True,
                       help='messages posted from this time')
    again.add_argument('--until', type=time, required=True,
                       help='messages posted up to this time')
    again.add_argument('--to', help='queue to post to (default: QUEUE)')
    again.add_argument('--delay', type=int,
                       help='delay of the posted messages (default: each '
                       'one\'s own)')
    again.add_argument('--dry-run', action='store_true',
                       help='say what would be posted, post nothing')
    again.set_defaults(func=replay, batch=1)
