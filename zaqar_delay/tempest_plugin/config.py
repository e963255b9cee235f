"""The tempest options of the delayed-queue tests."""

from oslo_config import cfg

delayed_messaging_group = cfg.OptGroup(
    name='delayed_messaging', title='Delayed queues (zaqar-delay)')

DelayedMessagingGroup = [
    cfg.IntOpt('max_message_delay', default=900,
               help="The server's [transport] max_message_delay."),
    cfg.IntOpt('delay', default=4,
               help='Seconds the messages of the tests wait; long enough '
                    'for the checks made before they come due.'),
    cfg.BoolOpt('waiting_control', default=False,
                help='The server serves the wsgi.delay transport (due '
                     'times, reschedules, moves): run its tests.'),
]
