"""``zaqar-delay-devserver``: a zaqar-server with ``redis.delay``, locally.

Starts a redis-server and a zaqar-server that stores messages with
``redis.delay``, both on 127.0.0.1 and free ports (``dev.stack.Stack``),
and a webhook receiver that prints each push it gets
(``dev.receiver``); prints how to use them, and stops them on Ctrl-C
(or SIGTERM), exiting 0. The config, the server's log and the pushes
received stay in the run's folder, named at start and at exit. With a
delay store, the server has zaqar-delay's notifier stage and its
in-server push dispatcher, so the example's subscription gets each
message when it is due. The server is noauth; with ``--keystone`` a
Keystone is started too (``dev.keystone``) and the server wants its
tokens, which ``openstack messaging`` needs. Which redis-server runs:
``zaqar_delay.dev.binaries``.
"""

import argparse
import os
import shutil
import sys
import uuid

from zaqar_delay.cmd import signals
from zaqar_delay.dev import keystone as dev_keystone
from zaqar_delay.dev import receiver as dev_receiver
from zaqar_delay.dev import stack as dev_stack

DEMO = 'demo'       # the example's project (and Keystone user)

HEADER = """\
zaqar-server ({store}) at {url}
redis-server on 127.0.0.1:{redis_port}: {redis_binary}
config: {conf}
log: {log} (kept after exit)
webhook receiver at {hook}: prints each push it gets here and in {pushes}
"""

KEYSTONE = """\
keystone at {auth_url}: user {demo}, password {password}, project {demo}
"""

EXAMPLE = """
Try it with python-zaqarclient:

  from zaqarclient.queues import client
  cli = client.Client('{url}', version=2, conf={{'auth_opts': {{
{auth}}}}})
  q = cli.queue('reminders', force_create=True)
  q.metadata(new_meta={{'_default_message_delay': 30}})
  # The receiver above gets each message when it is due, and prints it:
  cli.subscription('reminders', subscriber='{hook}',
                   ttl=3600)
  q.post([{{'body': 'in 30 s', 'ttl': 300}},
          {{'body': 'now', 'ttl': 300, 'delay': 0}}])
  print([m.body for m in q.claim(ttl=60, grace=60, limit=10)])  # ['now']
  print(q.stats)                          # delayed: 1, next_due: ...
"""

NO_CLI = """
openstack messaging needs Keystone: start with --keystone (a noauth
server needs an X-Project-ID header, which the CLI does not send).
"""

CLI = """
Try it with the openstack CLI{install}:

  {command}

or with the same settings from {openrc}:

  . {openrc}; openstack messaging queue list
"""


def cli_settings(auth_url, password):
    """The ``OS_*`` settings of the demo user, for ``openstack``."""
    return {'OS_AUTH_URL': auth_url, 'OS_IDENTITY_API_VERSION': '3',
            'OS_USERNAME': DEMO, 'OS_PASSWORD': password,
            'OS_PROJECT_NAME': DEMO, 'OS_USER_DOMAIN_ID': 'default',
            'OS_PROJECT_DOMAIN_ID': 'default',
            'OS_REGION_NAME': dev_keystone.REGION,
            'OS_MESSAGE_CLIENT_ID': str(uuid.uuid4())}


def _cli(settings, folder):
    """The openstack CLI part of the example; writes ``folder/openrc``."""
    openrc = os.path.join(folder, 'openrc')
    with open(openrc, 'w') as f:
        f.writelines('export %s=%s\n' % item for item in settings.items())
    flags = ' '.join('--os-%s %s' % (key[3:].lower().replace('_', '-'),
                                     value)
                     for key, value in settings.items()
                     if key != 'OS_MESSAGE_CLIENT_ID')
    beside = os.path.join(os.path.dirname(sys.executable), 'openstack')
    found = os.path.exists(beside) or shutil.which('openstack')
    return CLI.format(
        command='openstack %s messaging queue list' % flags, openrc=openrc,
        install='' if found else ' (pip install python-openstackclient '
        'python-zaqarclient)')


NOAUTH = """\
      'backend': 'noauth', 'options': {{'os_project_id': '{demo}'}}"""

KEYSTONE_AUTH = """\
      'backend': 'keystone', 'options': {{
          'auth_url': '{auth_url}', 'username': '{demo}',
          'password': '{password}', 'project_name': '{demo}',
          'user_domain_id': 'default', 'project_domain_id': 'default'}}"""


def _auth(auth_url, password):
    """The example's python-zaqarclient ``auth_opts`` (noauth, or the
    demo user's Keystone credentials)."""
    if auth_url is None:
        return NOAUTH.format(demo=DEMO)
    return KEYSTONE_AUTH.format(auth_url=auth_url, password=password,
                                demo=DEMO)


def parser():
    p = argparse.ArgumentParser(prog='zaqar-delay-devserver',
                                description=__doc__.splitlines()[0])
    p.add_argument('--max-message-delay', type=int, default=86400,
                   help='[transport] max_message_delay, in seconds')
    p.add_argument('--store', default='redis.delay',
                   choices=['redis.delay', 'redis', 'mongodb.delay',
                            'mongodb.fifo.delay', 'mongodb'],
                   help='message store driver (redis, mongodb: upstream\'s)')
    p.add_argument('--mongodb-url',
                   help='MongoDB server for the mongodb stores')
    p.add_argument('--keystone', action='store_true',
                   help='start Keystone too (its virtualenv is built on '
                   'first use, about two minutes) and authenticate with '
                   'it, so that openstack messaging works')
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    stack = dev_stack.Stack(message_store=args.store,
                            max_delay=args.max_message_delay,
                            mongodb_url=args.mongodb_url, pushes=True)
    pushes = os.path.join(stack.dir, 'pushes.log')
    hook = dev_receiver.Receiver(pushes, sys.stdout)
    stopping = signals.stop_event(ignore_again=True)
    keystone = None
    try:
        if args.keystone:
            print('starting Keystone (%s)' % dev_keystone.default_venv(),
                  flush=True)
            keystone = dev_keystone.Keystone(
                dir=os.path.join(stack.dir, 'keystone')).start()
            password = keystone.user(DEMO, DEMO)
            stack.keystone = keystone.zaqar_auth()
        stack.start()
        if stopping.is_set():
            return 0
        text = HEADER.format(store=args.store, url=stack.url,
                             redis_port=stack.redis_port, conf=stack.conf,
                             redis_binary=stack.redis_binary,
                             log=stack.log_path, hook=hook.url,
                             pushes=pushes)
        if keystone:
            keystone.point('messaging', stack.url, 'zaqar')
            auth_url = keystone.keystone + '/v3'
            text += KEYSTONE.format(auth_url=auth_url, demo=DEMO,
                                    password=password)
            text += EXAMPLE.format(url=stack.url, hook=hook.url,
                                   auth=_auth(auth_url, password))
            text += _cli(cli_settings(auth_url, password), stack.dir)
        else:
            text += EXAMPLE.format(url=stack.url, hook=hook.url,
                                   auth=_auth(None, None))
            text += NO_CLI
        print(text + '\nPress Ctrl-C to stop.\n', flush=True)
        processes = stack.processes + (keystone.processes if keystone
                                       else [])
        while not stopping.wait(0.5):
            if any(p.poll() is not None for p in processes):
                print('a server exited; see %s' % stack.dir,
                      file=sys.stderr)
                return 1
        print('stopping', flush=True)
        return 0
    finally:
        stack.stop()
        if keystone:
            keystone.stop()
        hook.stop()
        print('logs kept in %s' % stack.dir, flush=True)


if __name__ == '__main__':
    sys.exit(main())
