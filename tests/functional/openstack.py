"""Keystone and a one-replica Swift on loopback, for the swift tests.

Keystone (sqlite, fernet) is served by gunicorn; Swift runs an account,
a container, an object server and a proxy with keystonemiddleware, all
with their data under one temporary folder. Their binaries come from a
separate virtualenv (they do not share Zaqar's dependencies):
``$ZAQAR_DELAY_SERVICES_VENV``, else ``.tox/services`` in this checkout,
built from PyPI on first use (under a lock: several test processes may
ask at once) and reused after.
"""

import fcntl
import getpass
import grp
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from zaqar_delay.cmd import devserver

ADMIN = 'admin'
PASSWORD = 'zaqar-delay-secret'
REGION = 'RegionOne'

KEYSTONE_CONF = """[DEFAULT]
log_file = {dir}/keystone.log
[database]
connection = sqlite:///{dir}/keystone.db
[token]
provider = fernet
[fernet_tokens]
key_repository = {dir}/fernet-keys
[fernet_receipts]
key_repository = {dir}/receipt-keys
[credential]
key_repository = {dir}/credential-keys
"""

GUNICORN_CONF = """wsgi_app = "keystone.wsgi.api:application"
bind = "127.0.0.1:{port}"
workers = 1
threads = 4
control_socket_disable = True
"""

SWIFT_CONF = """[swift-hash]
swift_hash_path_suffix = zaqar-delay
swift_hash_path_prefix = zaqar-delay
[storage-policy:0]
name = Policy-0
default = yes
"""

SERVER_CONF = """[DEFAULT]
user = {user}
swift_dir = {dir}
recon_cache_path = {dir}
devices = {dir}/srv/node
mount_check = false
workers = 0
bind_ip = 127.0.0.1
bind_port = {port}
log_name = {kind}
[pipeline:main]
pipeline = {kind}-server
[app:{kind}-server]
use = egg:swift#{kind}
container_update_timeout = 10
[object-updater]
interval = 1
"""

PROXY_CONF = """[DEFAULT]
swift_dir = {dir}
workers = 0
bind_ip = 127.0.0.1
bind_port = {port}
[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging
    listing_formats authtoken keystoneauth copy dlo versioned_writes
    proxy-logging proxy-server
[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:copy]
use = egg:swift#copy
[filter:dlo]
use = egg:swift#dlo
[filter:versioned_writes]
use = egg:swift#versioned_writes
[filter:keystoneauth]
use = egg:swift#keystoneauth
operator_roles = admin, member
[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory
www_authenticate_uri = {keystone}/v3
auth_url = {keystone}/v3
auth_type = password
username = {admin}
password = {password}
project_name = {admin}
user_domain_name = Default
project_domain_name = Default
delay_auth_decision = True
"""


UPDATER = """
from swift.common import utils
utils.set_swift_dir({dir!r})
from swift.common.daemon import run_daemon
from swift.obj.updater import ObjectUpdater
run_daemon(ObjectUpdater, {conf!r}, verbose=True)
"""


SERVICES = ('keystone', 'swift', 'keystonemiddleware', 'gunicorn')
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def services_venv():
    """The Keystone + Swift virtualenv, built when missing."""
    venv = os.path.abspath(os.environ.get('ZAQAR_DELAY_SERVICES_VENV') or
                           os.path.join(_ROOT, '.tox', 'services'))
    done = os.path.join(venv, '.zaqar-delay-complete')
    if os.path.exists(done):
        return venv
    os.makedirs(os.path.dirname(venv), exist_ok=True)
    with open(venv + '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(done):
            _build_venv(venv)
            with open(done, 'w') as f:
                f.write(' '.join(SERVICES) + '\n')
    return venv


def _build_venv(venv):
    shutil.rmtree(venv, ignore_errors=True)     # a build that died
    sys.stderr.write('building %s (Keystone, Swift) from PyPI\n' % venv)
    subprocess.run([sys.executable, '-m', 'venv', venv], check=True)
    pip = [os.path.join(venv, 'bin', 'python'), '-m', 'pip', 'install',
           '--quiet', '--disable-pip-version-check']
    subprocess.run(pip + ['--upgrade', 'pip'], check=True)
    subprocess.run(pip + list(SERVICES), check=True)


def _request(url, data=None, headers=None, method=None, timeout=10):
    body = None if data is None else json.dumps(data).encode()
    req = urllib.request.Request(url, data=body, method=method, headers={
        'Content-Type': 'application/json', **(headers or {})})
    with urllib.request.urlopen(req, timeout=timeout) as reply:
        text = reply.read()
        return reply.headers, json.loads(text) if text else None


class KeystoneSwift:
    """Keystone and Swift, started together and stopped together
    (Keystone alone with ``swift=False``)."""

    def __init__(self, swift=True):
        self.with_swift = swift
        self.endpoints = {}
        self.venv = services_venv()
        self.dir = tempfile.mkdtemp(prefix='zaqar-delay-swift-')
        self.processes = []
        self.keystone_port = devserver.free_port()
        self.keystone = 'http://127.0.0.1:%d' % self.keystone_port
        self.ports = {kind: devserver.free_port()
                      for kind in ('account', 'container', 'object',
                                   'proxy')}
        self.swift = 'http://127.0.0.1:%d' % self.ports['proxy']

    def _bin(self, name):
        return os.path.join(self.venv, 'bin', name)

    def _run(self, *argv, **kwargs):
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.STDOUT, timeout=300, **kwargs)

    def _spawn(self, argv, log, **kwargs):
        out = open(os.path.join(self.dir, log), 'ab')
        self.processes.append(subprocess.Popen(
            argv, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, preexec_fn=devserver.die_with_parent,
            **kwargs))
        out.close()

    def start(self, timeout=120):
        try:
            self._start_keystone(timeout)
            if self.with_swift:
                self._register('object-store', 'swift',
                               self.swift + '/v1/AUTH_%(project_id)s')
                self._start_swift(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _start_keystone(self, timeout):
        conf = os.path.join(self.dir, 'keystone.conf')
        with open(conf, 'w') as f:
            f.write(KEYSTONE_CONF.format(dir=self.dir))
        manage = [self._bin('keystone-manage'), '--config-file', conf]
        user = ['--keystone-user', getpass.getuser(),
                '--keystone-group', grp.getgrgid(os.getgid()).gr_name]
        self._run(*manage, 'db_sync')
        self._run(*manage, 'fernet_setup', *user)
        self._run(*manage, 'receipt_setup', *user)
        self._run(*manage, 'credential_setup', *user)
        url = self.keystone + '/v3'
        self._run(*manage, 'bootstrap', '--bootstrap-password', PASSWORD,
                  '--bootstrap-region-id', REGION,
                  '--bootstrap-admin-url', url,
                  '--bootstrap-internal-url', url,
                  '--bootstrap-public-url', url)
        with open(os.path.join(self.dir, 'gunicorn.conf.py'), 'w') as f:
            f.write(GUNICORN_CONF.format(port=self.keystone_port))
        env = dict(os.environ, OS_KEYSTONE_CONFIG_FILES=conf)
        self._spawn([self._bin('gunicorn')], 'gunicorn.log', cwd=self.dir,
                    env=env)
        self._wait(lambda: _request(url, timeout=2), 'keystone', timeout)

    def token(self, project=ADMIN, user=ADMIN, password=PASSWORD):
        identity = {'methods': ['password'], 'password': {'user': {
            'name': user, 'domain': {'id': 'default'},
            'password': password}}}
        scope = {'project': {'name': project, 'domain': {'id': 'default'}}}
        headers, body = _request(self.keystone + '/v3/auth/tokens', {
            'auth': {'identity': identity, 'scope': scope}})
        return headers['X-Subject-Token'], body['token']

    def _register(self, kind, name, url):
        token, _ = self.token()
        auth = {'X-Auth-Token': token}
        _, service = _request(self.keystone + '/v3/services', {
            'service': {'type': kind, 'name': name}}, auth)
        self.endpoints[kind] = []
        for interface in ('public', 'internal', 'admin'):
            _, endpoint = _request(self.keystone + '/v3/endpoints', {
                'endpoint': {'service_id': service['service']['id'],
                             'interface': interface, 'region_id': REGION,
                             'url': url}}, auth)
            self.endpoints[kind].append(endpoint['endpoint']['id'])

    def zaqar_auth(self):
        """What ``devserver.Stack(keystone=...)`` needs to authenticate
        with this Keystone, as its admin."""
        return {'auth_url': self.keystone + '/v3', 'user': ADMIN,
                'password': PASSWORD, 'project': ADMIN}

    def swift_store(self):
        """What ``devserver.Stack(swift=...)`` needs to store messages in
        this Swift, as its admin."""
        return {'uri': 'swift://%s:%s@/%s' % (ADMIN, PASSWORD, ADMIN),
                'auth_url': self.keystone + '/v3', 'region': REGION}

    def point(self, kind, url, name=None):
        """Make the catalog's ``kind`` service (say ``messaging``) point
        at ``url``, registering it the first time."""
        if kind not in self.endpoints:
            return self._register(kind, name or kind, url)
        token, _ = self.token()
        for endpoint in self.endpoints[kind]:
            _request(self.keystone + '/v3/endpoints/' + endpoint,
                     {'endpoint': {'url': url}},
                     {'X-Auth-Token': token}, method='PATCH')

    def user(self, name, project, role='member'):
        """Create a project and a user with ``role`` on it; returns the
        user's password."""
        token, _ = self.token()
        auth = {'X-Auth-Token': token}
        _, proj = _request(self.keystone + '/v3/projects', {'project': {
            'name': project, 'domain_id': 'default'}}, auth)
        _, user = _request(self.keystone + '/v3/users', {'user': {
            'name': name, 'domain_id': 'default', 'password': PASSWORD,
            'default_project_id': proj['project']['id']}}, auth)
        _, roles = _request(self.keystone + '/v3/roles?name=' + role,
                            headers=auth)
        _request('%s/v3/projects/%s/users/%s/roles/%s' % (
            self.keystone, proj['project']['id'], user['user']['id'],
            roles['roles'][0]['id']), headers=auth, method='PUT')
        return PASSWORD

    def _start_swift(self, timeout):
        with open(os.path.join(self.dir, 'swift.conf'), 'w') as f:
            f.write(SWIFT_CONF)
        os.makedirs(os.path.join(self.dir, 'srv', 'node', 'd1'))
        for kind in ('account', 'container', 'object'):
            builder = os.path.join(self.dir, kind + '.builder')
            ring = self._bin('swift-ring-builder')
            self._run(ring, builder, 'create', '6', '1', '1')
            self._run(ring, builder, 'add',
                      'r1z1-127.0.0.1:%d/d1' % self.ports[kind], '100')
            self._run(ring, builder, 'rebalance')
            conf = os.path.join(self.dir, kind + '-server.conf')
            with open(conf, 'w') as f:
                f.write(SERVER_CONF.format(dir=self.dir, kind=kind,
                                           port=self.ports[kind],
                                           user=getpass.getuser()))
            self._spawn([self._bin('swift-%s-server' % kind), conf, '-v'],
                        kind + '.log')
        # Container listings that a busy container server missed are
        # caught up by the object updater, as in any Swift.
        # (swift's daemons read /etc/swift/swift.conf unless told first)
        self._spawn([self._bin('python'), '-c', UPDATER.format(
            dir=self.dir, conf=os.path.join(self.dir, 'object-server.conf'))],
            'object-updater.log')
        conf = os.path.join(self.dir, 'proxy-server.conf')
        with open(conf, 'w') as f:
            f.write(PROXY_CONF.format(dir=self.dir, port=self.ports['proxy'],
                                      keystone=self.keystone, admin=ADMIN,
                                      password=PASSWORD))
        self._spawn([self._bin('swift-proxy-server'), conf, '-v'],
                    'proxy.log')
        self._wait(lambda: urllib.request.urlopen(
            self.swift + '/healthcheck', timeout=2), 'swift', timeout)

    def _wait(self, check, what, timeout):
        deadline = time.monotonic() + timeout
        while True:
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError('%s exited; logs in %s' % (
                        process.args[0], self.dir))
            try:
                check()
                return
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    raise RuntimeError('%s not ready in %ss; logs in %s'
                                       % (what, timeout, self.dir))
                time.sleep(0.3)

    def stop(self):
        devserver.terminate(self.processes)
        self.processes = []

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
