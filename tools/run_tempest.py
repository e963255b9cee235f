"""Run tempest against a keystone-auth zaqar-server with the plugin.

    python tools/run_tempest.py [--backend redis.delay ...]
        [--suite delay|zaqar|all] [--compare] [--concurrency 2]

Starts Keystone (and Swift or a MongoDB server when a backend needs
one), then for each backend a zaqar-server that authenticates with
Keystone, registered in the catalog as the ``messaging`` service, and
runs tempest in a fresh workspace:

- ``delay``: this package's tempest plugin (delayed queues, and the
  ``wsgi.delay`` transport's due times, reschedules and moves);
- ``zaqar``: zaqar-tempest-plugin's v2 suite, which ours must pass
  whole (served by ``zaqar-delay-server``: ``wsgi.delay`` is a superset
  of upstream's API); with ``--compare`` it is also run against
  upstream's driver for the same backend (``redis``, ``mongodb``,
  ``swift``), and ours may then fail only what upstream's fails too.

Prints a line per run and exits 1 when a run fails that should not.
It uses the tests' fixtures: run it with the checkout on ``PYTHONPATH``
(``tox -e tempest`` does).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import test_summary      # beside this script, on sys.path when run
from tests.fixtures import openstack
from tests.fixtures import services
from tests.fixtures import zaqar_server

SUITES = {'delay': r'^zaqar_delay\.tempest_plugin\.',
          'zaqar': r'^zaqar_tempest_plugin\.tests\.v2\.'}
# Needs Keystone trusts set up for Zaqar's notifier and a webhook that
# receives the notification: not part of this local deployment (it fails
# the same way on upstream's drivers).
EXCLUDE = r'test_trust_subscription'
MAX_DELAY = 3600

TEMPEST_CONF = """[DEFAULT]
log_file = {dir}/tempest.log

[auth]
use_dynamic_credentials = True
admin_username = {admin}
admin_password = {password}
admin_project_name = {admin}
admin_domain_name = Default
tempest_roles = member

[identity]
uri_v3 = {keystone}/v3
auth_version = v3
region = {region}

[identity-feature-enabled]
api_v2 = False

[service_available]
zaqar = True
cinder = False
glance = False
neutron = False
nova = False
swift = False

[messaging]
catalog_type = messaging

[delayed_messaging]
max_message_delay = {max_delay}
delay = 4
waiting_control = {waiting_control}
"""


def _bin(name):
    return os.path.join(os.path.dirname(sys.executable), name)


def store_options(backend, keystone):
    if backend.startswith('mongodb'):
        return {'mongodb_url': services.mongo_server().url}
    if backend.startswith('swift'):
        return {'swift': keystone.swift_store()}
    return {}


def _keystone_errors(keystone):
    """Keystone's errors: its log's ERROR lines, and what gunicorn caught
    (a request's traceback goes to gunicorn's log, not Keystone's)."""
    found = []
    for name, keep in (('keystone.log', lambda line: ' ERROR ' in line),
                       ('gunicorn.log', lambda line: 'Error' in line)):
        try:
            with open(os.path.join(keystone.dir, name)) as f:
                found += ['%s: %s' % (name, line) for line in f
                          if keep(line)]
        except OSError:
            found.append('(no %s)\n' % name)
    return ''.join(found)[-4000:]


def tempest(keystone, regex, concurrency, waiting_control=True,
            label='tempest'):
    """Run tempest in a new workspace: (passed, failed, skipped, failing
    test ids). Each test's time is kept under ``label``
    (``tools/test_summary.py``)."""
    run_dir = tempfile.mkdtemp(prefix='zaqar-delay-tempest-')
    workspace = os.path.join(run_dir, 'workspace')
    # tempest keeps a workspace registry and its locks under ~/.tempest and
    # the temporary folder: give this run its own of each.
    env = dict(os.environ, TMPDIR=os.path.join(run_dir, 'tmp'))
    os.mkdir(env['TMPDIR'])
    subprocess.run([_bin('tempest'), 'init', '--workspace-path',
                    os.path.join(run_dir, 'workspaces.yaml'), workspace],
                   check=True, capture_output=True, env=env)
    with open(os.path.join(workspace, 'etc', 'tempest.conf'), 'w') as f:
        f.write(TEMPEST_CONF.format(
            dir=workspace, admin=openstack.ADMIN,
            password=openstack.PASSWORD, keystone=keystone.keystone,
            region=openstack.REGION, max_delay=MAX_DELAY,
            waiting_control=waiting_control))
    argv = [_bin('tempest'), 'run', '--regex', regex, '--exclude-regex',
            EXCLUDE, '--concurrency', str(concurrency)]
    proc = subprocess.run(argv, cwd=workspace, capture_output=True,
                          text=True, env=env)
    counts = {}
    for name in ('Passed', 'Failed', 'Skipped'):
        found = re.findall(r'- %s: (\d+)' % name, proc.stdout)
        counts[name] = int(found[-1]) if found else 0
    failing = subprocess.run(
        [_bin('stestr'), 'failing', '--list'], cwd=workspace,
        capture_output=True, text=True).stdout.split()
    stream = subprocess.run([_bin('stestr'), 'last', '--subunit'],
                            cwd=workspace, capture_output=True).stdout
    test_summary.keep(test_summary.times(stream, label), label)
    failing = sorted({re.sub(r'\[.*\]$', '', t) for t in failing
                      if t.startswith(('zaqar', 'setUpClass'))})
    if counts['Failed'] or not counts['Passed']:
        sys.stdout.write(proc.stdout[-6000:] + '\n')
        sys.stdout.write("Keystone's errors:\n%s\n" % (
            _keystone_errors(keystone) or '(none)'))
    return counts['Passed'], counts['Failed'], counts['Skipped'], failing


def run(keystone, backend, regex, concurrency):
    """Our drivers are served by zaqar-delay-server (``wsgi.delay``, a
    superset of upstream's API), upstream's by zaqar-server."""
    ours = backend.endswith('.delay')
    stack = zaqar_server.ZaqarServer(
        message_store=backend, max_delay=MAX_DELAY,
        keystone=keystone.zaqar_auth(), wsgi_delay=ours,
        **store_options(backend, keystone)).start()
    try:
        keystone.point('messaging', stack.url, 'zaqar')
        suite = next(name for name, r in SUITES.items() if r == regex)
        return tempest(keystone, regex, concurrency, ours,
                       'tempest-%s-%s' % (suite, backend))
    finally:
        stack.cleanup()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--backend', action='append',
                        choices=('redis.delay', 'mongodb.delay',
                                 'swift.delay', 'redis', 'mongodb', 'swift'),
                        help='message store (repeat; default redis.delay; '
                        'upstream\'s drivers too, as a check)')
    parser.add_argument('--suite', choices=('delay', 'zaqar', 'all'),
                        default='all')
    parser.add_argument('--compare', action='store_true',
                        help='run the zaqar suite on upstream\'s driver '
                        'too, and allow what it fails')
    parser.add_argument('--concurrency', type=int, default=2)
    args = parser.parse_args(argv)
    backends = args.backend or ['redis.delay']
    suites = ['delay', 'zaqar'] if args.suite == 'all' else [args.suite]
    keystone = openstack.KeystoneSwift(
        swift=any(b.startswith('swift') for b in backends)).start()
    ok = True
    totals = [0, 0, 0]
    try:
        for backend in backends:
            for suite in suites:
                passed, failed, skipped, failing = run(
                    keystone, backend, SUITES[suite], args.concurrency)
                print('tempest %s on %s: %d passed, %d failed, %d skipped'
                      % (suite, backend, passed, failed, skipped))
                for test in failing:
                    print('  failed: %s' % test)
                totals = [a + b for a, b in zip(totals,
                                                (passed, failed, skipped))]
                if suite == 'delay' or not args.compare:
                    ok = ok and passed > 0 and not failed
                    continue
                upstream = backend.split('.')[0]
                if upstream == backend:
                    continue
                up = run(keystone, upstream, SUITES[suite], args.concurrency)
                print('tempest %s on %s: %d passed, %d failed, %d skipped'
                      % ((suite, upstream) + up[:3]))
                for test in up[3]:
                    print('  failed: %s' % test)
                extra = sorted(set(failing) - set(up[3]))
                if extra or passed < up[0]:
                    print('  %s fails where %s passes: %s' % (
                        backend, upstream, ', '.join(extra) or '-'))
                    ok = False
    finally:
        keystone.cleanup()
    print('(excluded everywhere: %s)' % EXCLUDE)
    print('tempest: %d passed, %d failed, %d skipped' % tuple(totals))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
