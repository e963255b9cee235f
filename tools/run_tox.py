"""Run tox from a virtualenv of its own inside this checkout.

    python3 tools/run_tox.py [TOX ARGUMENTS]

The README's commands start here, so that they work with whatever
``python3`` a newcomer has: a distribution's own (Debian 12, Ubuntu
23.04 and later: PEP 668, where ``pip install`` outside a virtualenv is
refused, for root too), a pyenv or python.org build, or the python of
an activated virtualenv. Nothing is installed outside the checkout and
pip's and uv's caches; no root.

On first use it makes ``.tox/.bootstrap`` (standard library ``venv``)
and installs tox there with the ``tox-uv`` plugin, so that tox builds
its virtualenvs with uv (tox -e py3 from empty caches: 29 s, where pip
took 140 s with a warm cache), then replaces itself with that tox
(``exec``: Ctrl-C and the exit status are tox's own). A Python whose
``venv`` cannot install pip (Debian without ``python3-venv``) gets a
virtualenv without pip, and pip comes from the Python's own pip (``pip
--python``) or, failing that, from pip's wheel on PyPI.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, '.tox', '.bootstrap')
TOX = 'tox>=4.11,<5 tox-uv>=1.11'
# Written last: a bootstrap that died half way is made again.
DONE = os.path.join(VENV, '.zaqar-delay-bootstrap')
PIP_JSON = 'https://pypi.org/pypi/pip/json'


def python(venv=VENV):
    return os.path.join(venv, 'bin', 'python')


def ready(venv=VENV):
    """Whether ``venv`` holds a finished bootstrap of ``TOX``."""
    try:
        with open(os.path.join(venv, os.path.basename(DONE))) as f:
            return f.read().strip() == TOX and os.path.exists(python(venv))
    except OSError:
        return False


def _run(argv, **kwargs):
    return subprocess.run(argv, stdin=subprocess.DEVNULL, **kwargs)


def make_venv(venv, base=sys.executable):
    """Make ``venv`` from ``base``; returns whether it has pip."""
    shutil.rmtree(venv, ignore_errors=True)
    made = _run([base, '-m', 'venv', venv], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL)
    if made.returncode == 0 and _has_pip(python(venv)):
        return True
    shutil.rmtree(venv, ignore_errors=True)
    _run([base, '-m', 'venv', '--without-pip', venv], check=True)
    return False


def _has_pip(interpreter):
    return _run([interpreter, '-m', 'pip', '--version'],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL).returncode == 0


def install_pip(venv, base=sys.executable):
    """Put pip into a virtualenv made without it."""
    if _has_pip(base) and _run([base, '-m', 'pip', '--python',
                                python(venv), 'install', '--quiet',
                                'pip']).returncode == 0:
        return
    sys.stderr.write('run_tox: no pip to lend; fetching pip from PyPI\n')
    with urllib.request.urlopen(PIP_JSON, timeout=60) as reply:
        urls = [urllib.parse.urljoin(reply.geturl(), u['url'])
                for u in json.load(reply)['urls']]
    wheel = next(url for url in urls if url.endswith('.whl'))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, wheel.rsplit('/', 1)[1])
        with urllib.request.urlopen(wheel, timeout=120) as reply, \
                open(path, 'wb') as out:
            shutil.copyfileobj(reply, out)
        # A pip wheel runs as a zip application of itself.
        _run([python(venv), os.path.join(path, 'pip'), 'install',
              '--quiet', path], check=True)


def bootstrap(venv=VENV, base=sys.executable):
    """Make ``venv`` with tox in it, unless it is ready already."""
    if ready(venv):
        return
    sys.stderr.write('run_tox: installing tox into %s\n' % venv)
    if not make_venv(venv, base):
        install_pip(venv, base)
    _run([python(venv), '-m', 'pip', 'install', '--quiet'] + TOX.split(),
         check=True)
    with open(os.path.join(venv, os.path.basename(DONE)), 'w') as f:
        f.write(TOX + '\n')


def main(argv):
    bootstrap()
    os.chdir(ROOT)
    os.execv(python(), [python(), '-m', 'tox'] + argv)


if __name__ == '__main__':
    main(sys.argv[1:])
