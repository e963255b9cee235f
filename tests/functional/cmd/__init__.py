"""Console scripts run as a user runs them: processes of their own."""

import os
import subprocess
import sys
import time


def script(name):
    """The path of console script ``name`` of this virtualenv."""
    return os.path.join(os.path.dirname(sys.executable), name)


def run(name, *argv, timeout=120, **kwargs):
    """(CompletedProcess, seconds) of ``name argv``, text output."""
    started = time.monotonic()
    done = subprocess.run([script(name)] + list(argv), capture_output=True,
                          text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, **kwargs)
    return done, time.monotonic() - started
