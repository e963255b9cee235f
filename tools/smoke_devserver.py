"""Run the README's main job as a new user would, and stop it.

    python3 tools/smoke_devserver.py [--timeout 900] [--any-python]

Runs the first command of the README's "On a fresh machine" section in
a shell, in a process group of its own (as a terminal runs it), waits
for the example it prints, runs that python-zaqarclient example (a
subscription to the devserver's webhook receiver, a post and a claim;
its 30 s delay made 2 s), waits for the receiver to print both pushes,
then sends SIGINT to the group, as Ctrl-C does. It fails unless the
claim returns what the example says, both pushes arrive, the command
exits 0 saying where it kept its logs, and none of the servers it
started is left running. The kept folder is removed after.

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
import textwrap
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
READY = re.compile(r'zaqar-server \(\S+\) at (http://\S+)')
REDIS = re.compile(r'redis-server on 127\.0\.0\.1:(\d+)')
CONFIG = re.compile(r'^config: (\S+)', re.MULTILINE)

DONE = 'Press Ctrl-C to stop.'
KEPT = re.compile(r'^logs kept in (\S+)$', re.MULTILINE)
PUSH = r'push to reminders: .*"body": "%s"'


def printed_example(output):
    """The python-zaqarclient example of the devserver's output, its
    message delay made 2 s."""
    text = output.split('Try it with python-zaqarclient:\n\n')[1]
    code = textwrap.dedent(text.split('\n\n')[0])
    return code.replace("'_default_message_delay': 30",
                        "'_default_message_delay': 2")


def _wait(lines, pattern, deadline):
    while time.monotonic() < deadline:
        if re.search(pattern, ''.join(lines)):
            return True
        time.sleep(0.2)
    return False


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
        if url is None or not _wait(lines, re.escape(DONE), deadline):
            print('smoke: no URL and example from the main job',
                  file=sys.stderr)
            return 1
        print('smoke: serving after %.0f s' % (time.monotonic() - started))
        output = ''.join(lines)
        marks = [CONFIG.search(output).group(1),
                 '127.0.0.1:%s' % REDIS.search(output).group(1)]
        python = os.path.join(ROOT, '.tox', 'devserver', 'bin', 'python')
        example = subprocess.run([python, '-c', printed_example(output)],
                                 capture_output=True, text=True,
                                 timeout=120)
        sys.stdout.write(example.stdout + example.stderr)
        claimed = example.stdout.splitlines()[:1] == ["['now']"] and \
            "'delayed': 1" in example.stdout
        pushed = all(_wait(lines, PUSH % body, time.monotonic() + 60)
                     for body in ('now', 'in 30 s'))
        os.killpg(job.pid, signal.SIGINT)        # Ctrl-C
        code = job.wait(60)
        reader.join(5)
        time.sleep(0.5)
        strays = _strays(marks)
        kept = KEPT.search(''.join(lines))
        logged = bool(kept) and os.path.exists(
            os.path.join(kept.group(1), 'zaqar.log'))
    finally:
        if job.poll() is None:
            os.killpg(job.pid, signal.SIGKILL)
    if kept:
        shutil.rmtree(kept.group(1), ignore_errors=True)
    print('smoke: example exit %d, claimed as it says: %s; pushes '
          'arrived: %s; main job exit %d after Ctrl-C, log kept: %s; '
          'stray processes: %s' % (example.returncode, claimed, pushed,
                                   code, logged, strays or 'none'))
    return 0 if (example.returncode == 0 and claimed and pushed and
                 code == 0 and logged and not strays) else 1


if __name__ == '__main__':
    sys.exit(main())
