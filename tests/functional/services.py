"""Real services for the functional tests, started and stopped here.

Each test process starts at most one server of each kind, on a free
loopback port, on first use, and stops it (by PID) when it exits.
"""

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pymongo
import redis

from zaqar_delay.cmd import devserver

_started = {}


def _wait(check, what, timeout=15.0):
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return
        except Exception:
            if time.monotonic() > deadline:
                raise
        if time.monotonic() > deadline:
            raise RuntimeError('%s did not start in %ss' % (what, timeout))
        time.sleep(0.05)


class RedisServer:
    """A redis-server on 127.0.0.1 with no persistence."""

    def __init__(self):
        binary = devserver.redis_server_binary()
        self.port = devserver.free_port()
        self.dir = tempfile.mkdtemp(prefix='zaqar-delay-redis-')
        self.process = subprocess.Popen(
            [binary, '--bind', '127.0.0.1', '--port', str(self.port),
             '--save', '', '--appendonly', 'no', '--dir', self.dir,
             '--databases', '32'],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=devserver.die_with_parent)
        self.url = 'redis://127.0.0.1:%d' % self.port
        self.client = redis.Redis(port=self.port, socket_timeout=5)
        _wait(self.client.ping, 'redis-server')

    def stop(self):
        devserver.terminate([self.process])
        shutil.rmtree(self.dir, ignore_errors=True)


class MongoServer:
    """A MongoDB wire-protocol server: secantusdb, in memory.

    With ``ZAQAR_DELAY_TEST_MONGODB_URL`` set, that server (a real
    mongod, say) is used instead and nothing is started.
    """

    def __init__(self):
        self.process = None
        self.url = os.environ.get('ZAQAR_DELAY_TEST_MONGODB_URL')
        if not self.url:
            binary = shutil.which('secantusd-py') or os.path.join(
                os.path.dirname(sys.executable), 'secantusd-py')
            port = devserver.free_port()
            self.process = subprocess.Popen(
                [binary, '--host', '127.0.0.1', '--port', str(port),
                 '--storage-path', ':memory:', '--standalone'],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                preexec_fn=devserver.die_with_parent)
            self.url = 'mongodb://127.0.0.1:%d' % port
        self.client = pymongo.MongoClient(self.url,
                                          serverSelectionTimeoutMS=20000)
        _wait(lambda: self.client.admin.command('ping'), 'mongodb server',
              timeout=60)
        self.version = self.client.server_info()['version']

    def stop(self):
        self.client.close()
        if self.process:
            devserver.terminate([self.process])


def mongo_server():
    """The MongoDB server of this test process."""
    if 'mongo' not in _started:
        server = MongoServer()
        atexit.register(server.stop)
        _started['mongo'] = server
    return _started['mongo']


def keystone_swift():
    """The Keystone and Swift of this test process (one start per run:
    .stestr.conf groups the swift tests into one worker)."""
    if 'swift' not in _started:
        from tests.functional import openstack
        stack = openstack.KeystoneSwift().start()
        atexit.register(stack.cleanup)
        _started['swift'] = stack
    return _started['swift']


def keystone():
    """A Keystone of this test process: the Swift tests' one when they
    started it here, else Keystone alone."""
    if 'swift' in _started:
        return _started['swift']
    if 'keystone' not in _started:
        from tests.functional import openstack
        stack = openstack.KeystoneSwift(swift=False).start()
        atexit.register(stack.cleanup)
        _started['keystone'] = stack
    return _started['keystone']


def redis_server():
    """The redis-server of this test process."""
    if 'redis' not in _started:
        server = RedisServer()
        atexit.register(server.stop)
        _started['redis'] = server
    return _started['redis']


def zaqar_conf_dir(name, text):
    """Write a Zaqar test conf into this process's conf folder.

    Sets ``ZAQAR_TESTS_CONFIGS_DIR``, which Zaqar's test base reads.
    """
    if 'conf_dir' not in _started:
        folder = tempfile.mkdtemp(prefix='zaqar-delay-conf-')
        atexit.register(shutil.rmtree, folder, True)
        _started['conf_dir'] = folder
    folder = _started['conf_dir']
    with open(os.path.join(folder, name), 'w') as conf:
        conf.write(text)
    os.environ['ZAQAR_TESTS_CONFIGS_DIR'] = folder
    return folder
