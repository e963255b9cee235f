"""devstack/plugin.sh, phase by phase, against stubs of devstack.

Each phase runs in bash as devstack runs a plugin: devstack's functions
(stubbed below: each records its call, ``iniset`` also writes the ini
file), Zaqar's settings, then this plugin's ``settings`` and
``plugin.sh`` sourced with the phase's arguments. The zaqar.conf it
leaves is then read with oslo.config and zaqar-delay's options.
"""

import os
import subprocess
import sys

import fixtures
from oslo_config import cfg
import testtools

from zaqar_delay import opts

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))

STUBS = r'''
function _called { printf '%s\n' "$*" >> "$STUB_LOG"; }
function echo_summary { :; }
function die { shift; echo "die: $*" >&2; exit 1; }
function setup_develop { _called setup_develop "$@"; }
function pip_install { _called pip_install "$@"; }
function install_package { _called install_package "$@"; }
function run_process { _called run_process "$@"; }
function stop_process { _called stop_process "$@"; }
function get_python_exec_prefix { echo /usr/local/bin; }
function is_service_enabled {
    local s
    for s in "$@"; do
        [[ ,$ENABLED_SERVICES, == *,$s,* ]] && return 0
    done
    return 1
}
function trueorfalse {
    local default=$1 value=${!2:-$1}
    case "$value" in
        True|true|yes|Yes|on|1) echo True ;;
        False|false|no|No|off|0) echo False ;;
        *) echo "$default" ;;
    esac
}
function iniset {
    _called iniset "$@"
    "$STUB_PYTHON" - "$@" <<'PY'
import configparser, sys
path, section, option, value = sys.argv[1:5]
ini = configparser.RawConfigParser(strict=False)
ini.optionxform = str
ini.read(path)
if section != 'DEFAULT' and not ini.has_section(section):
    ini.add_section(section)
ini.set(section, option, value)
with open(path, 'w') as f:
    ini.write(f)
PY
}
'''

# What Zaqar's devstack/settings defines before this plugin's.
ZAQAR_SETTINGS = r'''
ZAQAR_DIR=$DEST/zaqar
ZAQAR_CONF=$STUB_CONF
ZAQAR_BIN_DIR=$(get_python_exec_prefix)
ZAQAR_BACKEND=${ZAQAR_BACKEND:-mongodb}
'''

# What Zaqar's configure_zaqar leaves in zaqar.conf (mongodb backend).
ZAQAR_CONF = '''\
[DEFAULT]
unreliable = True
pooling = True

[storage]
message_pipeline = zaqar.notification.notifier

[drivers]
transport = websocket
message_store = mongodb

[pooling:catalog]
enable_virtual_pool = True
'''


class PluginTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.tmp = self.useFixture(fixtures.TempDir()).path
        self.conf = os.path.join(self.tmp, 'zaqar.conf')
        self.log = os.path.join(self.tmp, 'calls')
        with open(self.conf, 'w') as f:
            f.write(ZAQAR_CONF)
        open(self.log, 'w').close()
        self.dest = os.path.join(self.tmp, 'stack')     # $DEST
        os.makedirs(os.path.join(self.dest, 'zaqar'))   # Zaqar's checkout

    def phase(self, *args, env=None, services='zaqar-websocket,zaqar-wsgi'):
        """Run one phase of plugin.sh; returns the bash result."""
        script = '\n'.join([
            STUBS, ZAQAR_SETTINGS,
            'source %s/devstack/settings' % TOP,
            'source %s/devstack/plugin.sh %s' % (TOP, ' '.join(args)),
            'echo "ZAQAR_BACKEND=$ZAQAR_BACKEND"'])
        environ = {'PATH': os.environ['PATH'], 'DEST': self.dest,
                   'STUB_LOG': self.log, 'STUB_CONF': self.conf,
                   'STUB_PYTHON': sys.executable,
                   'ENABLED_SERVICES': services, **(env or {})}
        return subprocess.run(['bash', '-c', script], env=environ,
                              capture_output=True, text=True, timeout=60)

    def stack(self, env=None, services='zaqar-websocket,zaqar-wsgi'):
        for args in (('stack', 'install'), ('stack', 'post-config'),
                     ('stack', 'extra'), ('unstack',)):
            done = self.phase(*args, env=env, services=services)
            self.assertEqual(0, done.returncode, done.stderr)
        return done

    def calls(self, name):
        with open(self.log) as f:
            return [line.split(' ', 1)[1].strip() for line in f
                    if line.split(' ', 1)[0] == name]

    def zaqar_conf(self):
        conf = cfg.ConfigOpts()
        opts.register_opts(conf)
        conf.register_opts([cfg.BoolOpt('pooling'),
                            cfg.BoolOpt('unreliable')])
        conf.register_opts([cfg.StrOpt('message_store')], group='drivers')
        conf.register_opts([cfg.ListOpt('message_pipeline')],
                           group='storage')
        conf(args=['--config-file', self.conf])
        return conf

    def test_defaults_follow_zaqar_backend_and_push_when_due(self):
        done = self.stack()
        self.assertIn('ZAQAR_BACKEND=mongodb', done.stdout)
        self.assertEqual([self.dest + '/zaqar', self.dest + '/zaqar-delay'],
                         self.calls('setup_develop'))
        conf = self.zaqar_conf()
        self.assertEqual('mongodb.delay', conf.drivers.message_store)
        self.assertEqual(['zaqar_delay.notification.notifier'],
                         conf.storage.message_pipeline)
        self.assertFalse(conf.pooling)
        self.assertTrue(conf.unreliable)              # Zaqar's, kept
        self.assertTrue(conf.delay_push.dispatch_in_server)
        self.assertEqual(900, conf.transport.max_message_delay)
        with open(self.conf) as f:
            text = f.read()
        self.assertNotIn('[delay]', text)             # defaults unset
        self.assertNotIn('[delay_push]', text)
        self.assertEqual([], self.calls('run_process'))
        self.assertEqual(['zaqar-delay-dispatcher'],
                         self.calls('stop_process'))

    def test_backend_options_and_the_dispatcher_service(self):
        done = self.stack(env={
            'ZAQAR_DELAY_BACKEND': 'redis',
            'ZAQAR_DELAY_MAX_MESSAGE_DELAY': '86400',
            'ZAQAR_DELAY_TTL_SHORTER_THAN_DELAY': 'accept',
            'ZAQAR_DELAY_PROMOTE_BATCH_SIZE': '250',
            'ZAQAR_DELAY_REDIS_SERVER_CLOCK': 'True',
            'ZAQAR_DELAY_PUSH_POLL_INTERVAL': '0.2',
            'ZAQAR_DELAY_PUSH_BATCH_SIZE': '50',
            'ZAQAR_DELAY_PUSH_LEASE': '120',
            'ZAQAR_DELAY_PUSH_LIGHT_HTTP_CLIENT': 'False'},
            services='zaqar-websocket,zaqar-wsgi,zaqar-delay-dispatcher')
        # Zaqar's plugin installs and connects the store chosen here.
        self.assertIn('ZAQAR_BACKEND=redis', done.stdout)
        conf = self.zaqar_conf()
        self.assertEqual('redis.delay', conf.drivers.message_store)
        self.assertEqual(86400, conf.transport.max_message_delay)
        self.assertEqual('accept', conf.delay.ttl_shorter_than_delay)
        self.assertEqual(250, conf.delay.promote_batch_size)
        self.assertTrue(conf.delay.redis_server_clock)
        self.assertEqual(0.2, conf.delay_push.poll_interval)
        self.assertEqual(50, conf.delay_push.batch_size)
        self.assertEqual(120, conf.delay_push.lease)
        self.assertFalse(conf.delay_push.light_http_client)
        self.assertFalse(conf.delay_push.dispatch_in_server)
        self.assertEqual(
            ['zaqar-delay-dispatcher /usr/local/bin/zaqar-delay-dispatcher '
             '--config-file %s' % self.conf], self.calls('run_process'))

    def test_swift_without_pushes_keeps_the_pipeline_and_pooling(self):
        self.stack(env={'ZAQAR_BACKEND': 'swift', 'ZAQAR_DELAY_PUSH': 'False',
                        'ZAQAR_DELAY_POOLING': 'True',
                        'ZAQAR_DELAY_DISPATCH_IN_SERVER': 'True'},
                   services='zaqar-wsgi,zaqar-delay-dispatcher')
        conf = self.zaqar_conf()
        self.assertEqual('swift.delay', conf.drivers.message_store)
        self.assertEqual(['zaqar.notification.notifier'],
                         conf.storage.message_pipeline)
        self.assertTrue(conf.pooling)
        self.assertTrue(conf.delay_push.dispatch_in_server)

    def test_an_unknown_backend_stops_the_stack(self):
        done = self.phase('stack', 'post-config',
                          env={'ZAQAR_DELAY_BACKEND': 'sqlite'})
        self.assertNotEqual(0, done.returncode)
        self.assertIn("ZAQAR_DELAY_BACKEND must be redis, mongodb or swift, "
                      "not 'sqlite'", done.stderr)
        self.assertEqual(ZAQAR_CONF, open(self.conf).read())

    def test_nothing_without_zaqar(self):
        self.stack(services='key,swift')
        self.assertEqual(ZAQAR_CONF, open(self.conf).read())
        with open(self.log) as f:
            self.assertEqual('', f.read())
