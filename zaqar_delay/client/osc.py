"""``openstack messaging message show|reschedule|move``: commands of
python-openstackclient's stock messaging plugin (entry point group
``openstack.messaging.v2``) for ``wsgi.delay``'s routes (``api``).

A message is posted for a time with the stock ``message post``: its
JSON takes ``"due"`` as it takes ``"delay"``, and ``PostWhen`` (a cliff
hook on that command) gives it ``--due`` and ``--delay`` for all the
messages of a post.
"""

import os

from cliff import hooks
from osc_lib.command import command
from osc_lib import exceptions

from zaqar_delay.client import api

COLUMNS = ('id', 'due', 'ttl', 'age', 'body', 'checksum')


def _queue(cmd, parsed_args):
    client = cmd.app.client_manager.messaging
    if parsed_args.client_id:
        client.client_uuid = parsed_args.client_id
    return client.queue(parsed_args.queue_name, auto_create=False)


def _common(parser):
    parser.add_argument('queue_name', metavar='<queue_name>',
                        help='Name of the queue')
    parser.add_argument('--client-id', metavar='<client_id>',
                        default=os.environ.get('OS_MESSAGE_CLIENT_ID'),
                        help='A UUID for each client instance.')
    return parser


def _when(parser, required):
    when = parser.add_mutually_exclusive_group(required=required)
    when.add_argument('--delay', type=int, metavar='<seconds>',
                      help='Due this many seconds from now (0: now)')
    when.add_argument('--due', metavar='<time>',
                      help='Due at this ISO 8601 time, with its zone '
                           '(2026-01-31T12:00:00Z)')
    return parser


def _shown(message):
    return COLUMNS, tuple(message.get(column, '') for column in COLUMNS)


class ShowMessage(command.ShowOne):
    """Show a message of a queue, with its due time"""

    def get_parser(self, prog_name):
        parser = _common(super().get_parser(prog_name))
        parser.add_argument('message_id', metavar='<message_id>',
                            help='ID of the message')
        return parser

    def take_action(self, parsed_args):
        return _shown(api.show(_queue(self, parsed_args),
                               parsed_args.message_id))


class RescheduleMessage(command.ShowOne):
    """Change when a message of a queue is due (--delay 0: now)"""

    def get_parser(self, prog_name):
        parser = _common(super().get_parser(prog_name))
        parser.add_argument('message_id', metavar='<message_id>',
                            help='ID of the message')
        return _when(parser, required=True)

    def take_action(self, parsed_args):
        return _shown(api.reschedule(
            _queue(self, parsed_args), parsed_args.message_id,
            delay=parsed_args.delay, due=parsed_args.due))


class MoveMessages(command.Lister):
    """Move messages no claim holds to another queue of the project"""

    def get_parser(self, prog_name):
        parser = _common(super().get_parser(prog_name))
        parser.add_argument('--to', required=True, metavar='<queue_name>',
                            help='The queue to move them to')
        which = parser.add_mutually_exclusive_group()
        which.add_argument('--id', dest='ids', action='append',
                           metavar='<message_id>',
                           help='A message to move (repeat for more)')
        which.add_argument('--limit', type=int, metavar='<n>',
                           help='Move the first n, oldest first (1 to '
                                '100; default 10)')
        return _when(parser, required=False)

    def take_action(self, parsed_args):
        moved = api.move(_queue(self, parsed_args), parsed_args.to,
                         ids=parsed_args.ids, limit=parsed_args.limit,
                         delay=parsed_args.delay, due=parsed_args.due)
        return (('From', 'To', 'Href'),
                [(m['id'], m['new_id'], m['href']) for m in moved])


class PostWhen(hooks.CommandHook):
    """``--due`` and ``--delay`` on the stock ``message post`` (entry
    point group ``openstack.cli.messaging_message_post``): each message
    of the post gets that ``due`` or ``delay``; a message that has its
    own is refused before anything is sent."""

    def get_parser(self, parser):
        return _when(parser, required=False)

    def get_epilog(self):
        return ''

    def before(self, parsed_args):
        when = {key: value for key, value in (
            ('delay', parsed_args.delay), ('due', parsed_args.due))
            if value is not None}
        if not when:
            return parsed_args
        messages = parsed_args.messages
        if not isinstance(messages, list) or not all(
                isinstance(message, dict) for message in messages):
            raise exceptions.CommandError(
                '<messages> must be a JSON list of messages')
        for number, message in enumerate(messages):
            own = sorted({'delay', 'due'} & set(message))
            if own:
                raise exceptions.CommandError(
                    'message %d has its own %s: leave it out, or leave '
                    'out --%s' % (number, own[0], next(iter(when))))
            message.update(when)
        return parsed_args

    def after(self, parsed_args, return_code):
        return return_code
