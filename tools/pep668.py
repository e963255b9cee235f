"""Find a PEP 668 ("externally managed") Python, as a newcomer has one.

    python3 tools/pep668.py BIN_DIR

Prints ``BIN_DIR`` after linking ``BIN_DIR/python3`` to the first
interpreter that refuses ``pip install`` outside a virtualenv: a
distribution's own Python (Debian 12's ``/usr/bin/python3``, Ubuntu
23.04 and later), whose standard library holds the
``EXTERNALLY-MANAGED`` marker and which is not a virtualenv (pip ignores
the marker inside one, so a virtualenv cannot stand in). ``.ci/run``
puts ``BIN_DIR`` first on ``PATH`` so that the README's commands run
with it. Exits 1 when the machine has none.
"""

import os
import shutil
import subprocess
import sys

CANDIDATES = ('python3', '/usr/bin/python3', '/usr/local/bin/python3')
PROBE = ('import os, sys, sysconfig; '
         'print(sys.prefix == sys.base_prefix and os.path.isfile('
         'os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))')


def externally_managed(interpreter):
    """Whether ``interpreter`` carries the PEP 668 marker."""
    try:
        out = subprocess.run([interpreter, '-I', '-c', PROBE],
                             capture_output=True, text=True, timeout=30)
    except OSError:
        return False
    return out.stdout.strip() == 'True'


def find(candidates=CANDIDATES):
    """The first of ``candidates`` (names on PATH or paths) that is
    externally managed, as a real path, or None."""
    for name in candidates:
        path = shutil.which(name)
        if path and externally_managed(path):
            return os.path.realpath(path)
    return None


def main(argv):
    if len(argv) != 1:
        sys.stderr.write('usage: python3 tools/pep668.py BIN_DIR\n')
        return 2
    found = find()
    if found is None:
        sys.stderr.write('pep668: no externally managed python3 here\n')
        return 1
    bindir = os.path.abspath(argv[0])
    os.makedirs(bindir, exist_ok=True)
    link = os.path.join(bindir, 'python3')
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(found, link)
    print(bindir)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
