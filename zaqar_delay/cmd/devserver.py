"""``zaqar-delay-devserver``: a zaqar-server with ``redis.delay``, locally.

Starts a redis-server and a noauth zaqar-server that stores messages with
``redis.delay``, both on 127.0.0.1 and free ports (``dev.stack.Stack``),
prints how to use them and stops both on Ctrl-C (or SIGTERM), exiting 0.
With a delay store, the server has zaqar-delay's notifier stage and its
in-server push dispatcher, so a webhook subscription gets each message
when it is due. Which redis-server runs: ``zaqar_delay.dev.binaries``.
"""

import argparse
import signal
import sys
import threading

from zaqar_delay.dev import stack as dev_stack

EXAMPLE = """\
zaqar-server ({store}) at {url}
redis-server on 127.0.0.1:{redis_port}: {redis_binary}
config: {conf}

Try it with python-zaqarclient:

  from zaqarclient.queues import client
  cli = client.Client('{url}', version=2, conf={{'auth_opts': {{
      'backend': 'noauth', 'options': {{'os_project_id': 'demo'}}}}}})
  q = cli.queue('reminders', force_create=True)
  q.metadata(new_meta={{'_default_message_delay': 30}})
  # A webhook of yours gets each message when it is due:
  cli.subscription('reminders', subscriber='http://127.0.0.1:8080/hook',
                   ttl=3600)
  q.post([{{'body': 'in 30 s', 'ttl': 300}},
          {{'body': 'now', 'ttl': 300, 'delay': 0}}])
  print([m.body for m in q.claim(ttl=60, grace=60, limit=10)])  # ['now']
  print(q.stats)                          # delayed: 1, next_due: ...

Press Ctrl-C to stop.
"""


def _stop_on_signals():
    """An event set by the first SIGINT or SIGTERM; later ones are
    ignored, so that stopping the servers is never cut short."""
    stopping = threading.Event()

    def handler(signum, frame):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stopping.set()

    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)
    return stopping


def main(argv=None):
    parser = argparse.ArgumentParser(prog='zaqar-delay-devserver',
                                     description=__doc__.splitlines()[0])
    parser.add_argument('--max-message-delay', type=int, default=86400,
                        help='[transport] max_message_delay, in seconds')
    parser.add_argument('--store', default='redis.delay',
                        choices=['redis.delay', 'redis', 'mongodb.delay',
                                 'mongodb.fifo.delay', 'mongodb'],
                        help='message store driver (redis, mongodb: '
                             'upstream\'s)')
    parser.add_argument('--mongodb-url',
                        help='MongoDB server for the mongodb stores')
    args = parser.parse_args(argv)

    stack = dev_stack.Stack(message_store=args.store,
                            max_delay=args.max_message_delay,
                            mongodb_url=args.mongodb_url, pushes=True)
    stopping = _stop_on_signals()
    try:
        stack.start()
        if stopping.is_set():
            return 0
        print(EXAMPLE.format(store=args.store, url=stack.url,
                             redis_port=stack.redis_port, conf=stack.conf,
                             redis_binary=stack.redis_binary),
              flush=True)
        while not stopping.wait(0.5):
            if any(p.poll() is not None for p in stack.processes):
                print('a server exited; see %s' % stack.log_path,
                      file=sys.stderr)
                return 1
        print('stopping', flush=True)
        return 0
    finally:
        stack.cleanup()


if __name__ == '__main__':
    sys.exit(main())
