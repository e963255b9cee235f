"""Run the README's main job as a new user would, and stop it.

    python3 tools/smoke_devserver.py [--timeout 900] [--any-python]

Runs the first command of the README's "On a fresh machine" section in
a shell, in a process group of its own (as a terminal runs it), waits
for the URL it prints, runs the printed python-zaqarclient example (a
post and a claim), then sends SIGINT to the group, as Ctrl-C does. It
fails unless the claim returns what the example says, the command exits
0, and none of the servers it started is left running.

The command runs with the ``python3`` found first on ``PATH``, which
must be a PEP 668 ("externally managed") distribution Python, as most
newcomers' is (``.ci/run`` puts one first with ``tools/pep668.py``):
a command that needs ``pip install`` outside a virtualenv fails here
as it would for them. ``--any-python`` lifts that check.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
READY = re.compile(r'zaqar-server \(\S+\) at (http://\S+)')
REDIS = re.compile(r'redis-server on 127\.0\.0\.1:(\d+)')
CONFIG = re.compile(r'^config: (\S+)', re.MULTILINE)

EXAMPLE = """
from zaqarclient.queues import client
cli = client.Client(%r, version=2, conf={'auth_opts': {
    'backend': 'noauth', 'options': {'os_project_id': 'smoke'}}})
q = cli.queue('reminders', force_create=True)
q.metadata(new_meta={'_default_message_delay': 30})
q.post([{'body': 'in 30 s', 'ttl': 300},
        {'body': 'now', 'ttl': 300, 'delay': 0}])
got = [m.body for m in q.claim(ttl=60, grace=60, limit=10)]
stats = q.stats['messages']
print('claimed', got, 'delayed', stats['delayed'])
assert got == ['now'], got
assert stats['delayed'] == 1, stats
"""


def readme_commands():
    """The commands of the README's "On a fresh machine" section."""
    with open(os.path.join(ROOT, 'README.rst')) as f:
        text = f.read()
    section = text.split('On a fresh machine', 1)[1]
    section = re.split(r'\n\S[^\n]*\n=+\n', section, maxsplit=1)[0]
    return re.findall(r'^\s+\$ (.+)$', section, re.MULTILINE)


def _read(stream, sink):
    for line in iter(stream.readline, ''):
        sys.stdout.write(line)
        sys.stdout.flush()
        sink.append(line)


def _strays(marks):
    """Processes whose command line names one of ``marks``."""
    found = []
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open('/proc/%s/cmdline' % pid, 'rb') as f:
                argv = f.read().replace(b'\0', b' ').decode(errors='replace')
        except OSError:
            continue
        if any(mark in argv for mark in marks):
            found.append('%s %s' % (pid, argv.strip()))
    return found


def main(argv=None):
    import pep668           # beside this script, on sys.path when run
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--timeout', type=float, default=900,
                        help='seconds to wait for the URL (the first run '
                        'builds tox\'s environment)')
    parser.add_argument('--any-python', action='store_true',
                        help='run with any python3, not only a PEP 668 '
                        'distribution Python')
    args = parser.parse_args(argv)
    python3 = shutil.which('python3')
    if not args.any_python and not pep668.externally_managed(python3):
        print('smoke: %s is not an externally managed (PEP 668) Python; '
              'put one first on PATH (python3 tools/pep668.py DIR) or '
              'pass --any-python' % python3, file=sys.stderr)
        return 1
    print('smoke: python3 is %s' % python3, flush=True)
    command = readme_commands()[0]
    print('$ %s' % command, flush=True)
    started = time.monotonic()
    job = subprocess.Popen(['bash', '-c', command], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, text=True,
                           start_new_session=True)
    lines = []
    reader = threading.Thread(target=_read, args=(job.stdout, lines),
                              daemon=True)
    reader.start()
    url = None
    deadline = started + args.timeout
    try:
        while url is None and time.monotonic() < deadline:
            if job.poll() is not None:
                break
            found = READY.search(''.join(lines))
            url = found and found.group(1)
            time.sleep(0.2)
        if url is None:
            print('smoke: no URL from the main job', file=sys.stderr)
            return 1
        print('smoke: serving after %.0f s' % (time.monotonic() - started))
        output = ''.join(lines)
        marks = [CONFIG.search(output).group(1),
                 '127.0.0.1:%s' % REDIS.search(output).group(1)]
        python = os.path.join(ROOT, '.tox', 'devserver', 'bin', 'python')
        example = subprocess.run([python, '-c', EXAMPLE % url],
                                 capture_output=True, text=True,
                                 timeout=120)
        sys.stdout.write(example.stdout + example.stderr)
        os.killpg(job.pid, signal.SIGINT)        # Ctrl-C
        code = job.wait(60)
        reader.join(5)
        time.sleep(0.5)
        strays = _strays(marks)
    finally:
        if job.poll() is None:
            os.killpg(job.pid, signal.SIGKILL)
    print('smoke: example exit %d; main job exit %d after Ctrl-C; '
          'stray processes: %s' % (example.returncode, code,
                                   strays or 'none'))
    return 0 if (example.returncode == 0 and code == 0 and
                 not strays) else 1


if __name__ == '__main__':
    sys.exit(main())
