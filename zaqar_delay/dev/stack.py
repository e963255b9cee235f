"""A redis-server and a zaqar-server using it, on loopback.

``zaqar-delay-devserver`` runs one ``Stack``; the test fixtures
subclass it (``tests/fixtures/zaqar_server.py``).
"""

import os
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid

from oslo_log import log

from zaqar_delay import errors
from zaqar_delay import pending
from zaqar_delay.dev import binaries
from zaqar_delay.dev import launcher
from zaqar_delay.dev import ports


# oslo.log's default levels, and osprofiler's notifier at CRITICAL:
# Zaqar builds that notifier at each start whatever [profiler] enabled
# says, and with osprofiler's default connection string and no
# oslo.messaging it logs a 12-line ERROR traceback (doc/source/admin.rst).
QUIET_LOG_LEVELS = ','.join(log.get_default_log_levels() +
                            ['osprofiler.notifier=CRITICAL'])


def render(sections):
    """An ini file's text from {section: {option: value}}."""
    return ''.join('[%s]\n%s\n' % (name, ''.join(
        '%s = %s\n' % item for item in options.items()))
        for name, options in sections.items())


class Stack:
    """A redis-server and a zaqar-server using it, on loopback.

    The redis-server keeps Zaqar's queues (the management store) and, for
    the redis stores, the messages; a mongodb store needs
    ``mongodb_url``. With ``keystone`` (what ``keystone.Keystone.
    zaqar_auth()`` gives), the server wants Keystone tokens.
    ``sections()`` gives zaqar.conf; a subclass may add to it. Files
    and logs go under ``dir``, which ``stop`` keeps and ``cleanup``
    removes.
    """

    def __init__(self, message_store='redis.delay', max_delay=86400,
                 mongodb_url=None, pushes=False, keystone=None):
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
        self.keystone = keystone

    def pick_ports(self):
        """Free ports for the servers (picked again when one was taken
        before its server bound it)."""
        self.redis_port = ports.free_port()
        self.port = ports.free_port()
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
            'DEFAULT': {'pooling': 'False', 'unreliable': 'True',
                        'default_log_levels': QUIET_LOG_LEVELS},
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
        if self.keystone:
            sections['DEFAULT']['auth_strategy'] = 'keystone'
            sections['keystone_authtoken'] = {
                'www_authenticate_uri': self.keystone['auth_url'],
                'auth_url': self.keystone['auth_url'],
                'auth_type': 'password',
                'username': self.keystone['user'],
                'password': self.keystone['password'],
                'project_name': self.keystone['project'],
                'user_domain_name': 'Default',
                'project_domain_name': 'Default'}
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
            except errors.ServerExited:
                if attempt == attempts - 1:
                    raise
                self.pick_ports()

    def _start(self, timeout):
        try:
            self.redis_binary = binaries.redis_server()
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
        return ([binaries.installed('zaqar-server'), '--config-file', conf],
                self._log)

    def _spawn(self, argv, output, env=None):
        # In a session of their own: a Ctrl-C in the terminal reaches
        # only this process, which stops them in order.
        self.processes.append(launcher.spawn(
            argv, stdout=output, stderr=subprocess.STDOUT, env=env,
            stdin=subprocess.DEVNULL, start_new_session=True))

    def ready(self, reply_status):
        """Whether a ping that got ``reply_status`` finds the server up
        (with Keystone, a ping without a token is refused: it is up)."""
        return reply_status == 204 or (reply_status == 401 and
                                       bool(self.keystone))

    def _wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        ping = urllib.request.Request(self.url + '/v2/ping', headers={
            'Client-ID': str(uuid.uuid4()), 'X-Project-ID': 'ping'})
        while time.monotonic() < deadline:
            for process in self.processes:
                if process.poll() is not None:
                    raise errors.ServerExited('%s exited; see %s' % (
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
        launcher.terminate(list(reversed(self.processes)))
        self.processes = []
        if getattr(self, '_log', None):
            self._log.close()

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
