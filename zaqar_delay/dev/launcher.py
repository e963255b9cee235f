"""Child processes that die with the process that started them."""

import os
import subprocess
import sys

# Sets the parent-death signal, checks that the parent that started it
# is still there (else it already missed that death), then becomes the
# command. Arguments: the parent's PID, then the command.
_LAUNCHER = """\
import ctypes, os, signal, sys
try:
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
except (OSError, AttributeError):
    pass
if os.getppid() != int(sys.argv[1]):
    sys.exit(1)
os.execvp(sys.argv[2], sys.argv[2:])
"""


def dying_with_parent(argv):
    """``argv`` as a command that gets SIGTERM when this process dies
    (Linux). A short Python launcher sets that, then execs ``argv`` in
    the same process. Popen's ``preexec_fn`` would instead run Python in
    the child of a fork of this process, with the locks other threads
    held at the fork: pymongo's after-fork hook logged there, on a
    handler's lock, and the child never got to exec."""
    return [sys.executable, '-I', '-S', '-c', _LAUNCHER,
            str(os.getpid())] + list(argv)


def spawn(argv, **kwargs):
    """Start ``argv`` as :func:`dying_with_parent` runs it (``kwargs``
    go to Popen); the Popen's ``command`` is ``argv``, its ``args`` the
    launcher's."""
    process = subprocess.Popen(dying_with_parent(argv), **kwargs)
    process.command = list(argv)
    return process


def terminate(processes, timeout=10):
    """Stop processes: SIGTERM, then SIGKILL after ``timeout`` seconds."""
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
