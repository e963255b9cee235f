"""Keystone on loopback, for ``zaqar-delay-devserver --keystone`` and the
tests (whose Keystone + Swift, ``tests/fixtures/openstack.py``, is this
with Swift added).

Keystone (sqlite, fernet) is served by gunicorn, its data under one
folder, copied from a template made once for the virtualenv (its
tables and keys). Its programs come from a virtualenv of their own (they do not
share Zaqar's dependencies), which holds Swift too, for the tests:
``$ZAQAR_DELAY_SERVICES_VENV``; else ``.tox/services`` of the checkout
this package runs from; else ``~/.cache/zaqar-delay/services``. It is
built from PyPI on first use (about two minutes; under a lock: several
processes may ask at once) and reused after.
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

from zaqar_delay.dev import launcher
from zaqar_delay.dev import ports

ADMIN = 'admin'
PASSWORD = 'zaqar-delay-secret'
REGION = 'RegionOne'

PACKAGES = ('keystone', 'swift', 'keystonemiddleware', 'gunicorn')
# The folder in the virtualenv that each Keystone's data start from
# (``Keystone._template``), and what is copied from it.
TEMPLATE = 'keystone-template'
TEMPLATE_FILES = ('keystone.db', 'fernet-keys', 'receipt-keys',
                  'credential-keys')

KEYSTONE_CONF = """[DEFAULT]
log_file = {dir}/keystone.log
[identity]
# bcrypt's fewest rounds: a test bed's passwords need no strength, and
# each token costs less.
password_hash_rounds = 4
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

# No command-line arguments (Keystone parses sys.argv: its workers would
# crash-loop). One thread: every password authentication writes the
# user's ``last_active_at``, and two at once on one sqlite file fail
# with "database is locked".
GUNICORN_CONF = """wsgi_app = "keystone.wsgi.api:application"
bind = "127.0.0.1:{port}"
workers = 1
threads = 1
control_socket_disable = True
"""


def default_venv():
    """Where the services virtualenv is (see the module docstring)."""
    chosen = os.environ.get('ZAQAR_DELAY_SERVICES_VENV')
    if chosen:
        return os.path.abspath(chosen)
    checkout = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    if os.path.exists(os.path.join(checkout, 'tox.ini')):
        return os.path.join(checkout, '.tox', 'services')
    return os.path.join(os.path.expanduser('~'), '.cache', 'zaqar-delay',
                        'services')


def services_venv(venv=None):
    """The services virtualenv (``default_venv()`` if None), built when
    missing."""
    venv = os.path.abspath(venv or default_venv())
    done = os.path.join(venv, '.zaqar-delay-complete')
    if os.path.exists(done):
        return venv
    os.makedirs(os.path.dirname(venv), exist_ok=True)
    with open(venv + '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(done):
            _build_venv(venv)
            with open(done, 'w') as f:
                f.write(' '.join(PACKAGES) + '\n')
    return venv


def _build_venv(venv):
    shutil.rmtree(venv, ignore_errors=True)     # a build that died
    sys.stderr.write('building %s (Keystone, Swift) from PyPI\n' % venv)
    try:
        import uv       # test-requirements: ~10 s where pip takes ~90 s
    except ImportError:
        uv = None
    if uv is not None:
        subprocess.run([uv.find_uv_bin(), 'venv', '--quiet', '--python',
                        sys.executable, venv], check=True)
        subprocess.run([uv.find_uv_bin(), 'pip', 'install', '--quiet',
                        '--compile-bytecode',
                        '--python', os.path.join(venv, 'bin', 'python')] +
                       list(PACKAGES), check=True)
        return
    # Without ensurepip (Debian without python3-venv has none): this
    # environment's own pip installs pip into the new virtualenv.
    subprocess.run([sys.executable, '-m', 'venv', '--without-pip', venv],
                   check=True)
    python = os.path.join(venv, 'bin', 'python')
    subprocess.run([sys.executable, '-m', 'pip', '--python', python,
                    'install', '--quiet', 'pip'], check=True)
    pip = [python, '-m', 'pip', 'install', '--quiet',
           '--disable-pip-version-check']
    subprocess.run(pip + list(PACKAGES), check=True)


def request(url, data=None, headers=None, method=None, timeout=10):
    """(headers, JSON body or None) of a JSON request to ``url``."""
    body = None if data is None else json.dumps(data).encode()
    req = urllib.request.Request(url, data=body, method=method, headers={
        'Content-Type': 'application/json', **(headers or {})})
    with urllib.request.urlopen(req, timeout=timeout) as reply:
        text = reply.read()
        return reply.headers, json.loads(text) if text else None


class Keystone:
    """A Keystone on a free loopback port (``keystone``: its URL, without
    ``/v3``), with an ``admin`` user (``PASSWORD``) and catalog
    endpoints in ``REGION``. Its files go under ``dir`` (a new temporary
    folder if None)."""

    def __init__(self, venv=None, dir=None):
        self.endpoints = {}
        self.venv = services_venv(venv)
        self.dir = dir or tempfile.mkdtemp(prefix='zaqar-delay-keystone-')
        os.makedirs(self.dir, exist_ok=True)
        self.processes = []
        self.keystone_port = ports.free_port()
        self.keystone = 'http://127.0.0.1:%d' % self.keystone_port

    def _bin(self, name):
        return os.path.join(self.venv, 'bin', name)

    def _run(self, *argv, **kwargs):
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.STDOUT, timeout=300, **kwargs)

    def _spawn(self, argv, log, **kwargs):
        out = open(os.path.join(self.dir, log), 'ab')
        self.processes.append(launcher.spawn(
            argv, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, **kwargs))
        out.close()

    def start(self, timeout=120):
        try:
            self._start_keystone(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _write_conf(self, folder):
        conf = os.path.join(folder, 'keystone.conf')
        with open(conf, 'w') as f:
            f.write(KEYSTONE_CONF.format(dir=folder))
        return [self._bin('keystone-manage'), '--config-file', conf]

    def _template(self):
        """A Keystone data folder made once for the virtualenv, under a
        lock: the database with its tables and the key repositories,
        which each Keystone copies (four ``keystone-manage`` runs, 5.6
        CPU seconds, saved at each start)."""
        folder = os.path.join(self.venv, TEMPLATE)
        done = os.path.join(folder, '.complete')
        if os.path.exists(done):
            return folder
        with open(folder + '.lock', 'w') as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not os.path.exists(done):
                shutil.rmtree(folder, ignore_errors=True)   # one that died
                os.makedirs(folder)
                manage = self._write_conf(folder)
                user = ['--keystone-user', getpass.getuser(),
                        '--keystone-group', grp.getgrgid(os.getgid()).gr_name]
                self._run(*manage, 'db_sync')
                self._run(*manage, 'fernet_setup', *user)
                self._run(*manage, 'receipt_setup', *user)
                self._run(*manage, 'credential_setup', *user)
                with open(done, 'w'):
                    pass
        return folder

    def _start_keystone(self, timeout):
        template = self._template()
        for name in TEMPLATE_FILES:
            source = os.path.join(template, name)
            if os.path.isdir(source):
                shutil.copytree(source, os.path.join(self.dir, name))
            else:
                shutil.copy2(source, self.dir)
        manage = self._write_conf(self.dir)
        url = self.keystone + '/v3'
        self._run(*manage, 'bootstrap', '--bootstrap-password', PASSWORD,
                  '--bootstrap-region-id', REGION,
                  '--bootstrap-admin-url', url,
                  '--bootstrap-internal-url', url,
                  '--bootstrap-public-url', url)
        with open(os.path.join(self.dir, 'gunicorn.conf.py'), 'w') as f:
            f.write(GUNICORN_CONF.format(port=self.keystone_port))
        env = dict(os.environ, OS_KEYSTONE_CONFIG_FILES=manage[-1])
        self._spawn([self._bin('gunicorn')], 'gunicorn.log', cwd=self.dir,
                    env=env)
        self._wait(lambda: request(url, timeout=2), 'keystone', timeout)

    def token(self, project=ADMIN, user=ADMIN, password=PASSWORD):
        """(token, token body) of ``user`` scoped to ``project``."""
        identity = {'methods': ['password'], 'password': {'user': {
            'name': user, 'domain': {'id': 'default'},
            'password': password}}}
        scope = {'project': {'name': project, 'domain': {'id': 'default'}}}
        headers, body = request(self.keystone + '/v3/auth/tokens', {
            'auth': {'identity': identity, 'scope': scope}})
        return headers['X-Subject-Token'], body['token']

    def _register(self, kind, name, url):
        token, _ = self.token()
        auth = {'X-Auth-Token': token}
        _, service = request(self.keystone + '/v3/services', {
            'service': {'type': kind, 'name': name}}, auth)
        self.endpoints[kind] = []
        for interface in ('public', 'internal', 'admin'):
            _, endpoint = request(self.keystone + '/v3/endpoints', {
                'endpoint': {'service_id': service['service']['id'],
                             'interface': interface, 'region_id': REGION,
                             'url': url}}, auth)
            self.endpoints[kind].append(endpoint['endpoint']['id'])

    def zaqar_auth(self):
        """What a zaqar-server (``stack.Stack(keystone=...)``) needs to
        authenticate with this Keystone, as its admin."""
        return {'auth_url': self.keystone + '/v3', 'user': ADMIN,
                'password': PASSWORD, 'project': ADMIN}

    def point(self, kind, url, name=None):
        """Make the catalog's ``kind`` service (say ``messaging``) point
        at ``url``, registering it the first time."""
        if kind not in self.endpoints:
            return self._register(kind, name or kind, url)
        token, _ = self.token()
        for endpoint in self.endpoints[kind]:
            request(self.keystone + '/v3/endpoints/' + endpoint,
                    {'endpoint': {'url': url}},
                    {'X-Auth-Token': token}, method='PATCH')

    def user(self, name, project, role='member'):
        """Create a project and a user with ``role`` on it; returns the
        user's password."""
        token, _ = self.token()
        auth = {'X-Auth-Token': token}
        _, proj = request(self.keystone + '/v3/projects', {'project': {
            'name': project, 'domain_id': 'default'}}, auth)
        _, user = request(self.keystone + '/v3/users', {'user': {
            'name': name, 'domain_id': 'default', 'password': PASSWORD,
            'default_project_id': proj['project']['id']}}, auth)
        _, roles = request(self.keystone + '/v3/roles?name=' + role,
                           headers=auth)
        request('%s/v3/projects/%s/users/%s/roles/%s' % (
            self.keystone, proj['project']['id'], user['user']['id'],
            roles['roles'][0]['id']), headers=auth, method='PUT')
        return PASSWORD

    def _wait(self, check, what, timeout):
        deadline = time.monotonic() + timeout
        while True:
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError('%s exited; logs in %s' % (
                        process.command[0], self.dir))
            try:
                check()
                return
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    raise RuntimeError('%s not ready in %ss; logs in %s'
                                       % (what, timeout, self.dir))
                time.sleep(0.3)

    def stop(self):
        launcher.terminate(self.processes)
        self.processes = []

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
