"""A class-data archive for the Spark driver's JVM (AppCDS).

A job that starts its own JVM spends seconds loading and verifying
Spark's classes. The first such job on a machine has the JVM write the
classes it loaded to an archive when it exits
(``-XX:ArchiveClassesAtExit``); later jobs map that archive
(``-XX:SharedArchiveFile``) and start about 2 seconds sooner, and their
first Spark job runs about 1 second sooner (measured in
``doc/source/benchmarks.rst``). The archive lives in the user's cache
folder, named after the Java runtime and the PySpark version, so that a
new runtime or Spark gets a new one; a JVM that cannot use an archive
(another runtime, a runtime without a base archive) ignores it
(``-Xshare:auto``) and runs as it would without. Set
``ZAQAR_DELAY_CLASS_ARCHIVE=0`` to leave the JVM's options alone.

The JVM writes the archive after the Python process has ended, so each
writer names its own ``.tmp`` file; a later job adopts one (an atomic
rename) once it is a minute old, long after its JVM has finished it.
"""

import glob
import hashlib
import os
import shutil
import time

ENV = 'ZAQAR_DELAY_CLASS_ARCHIVE'
SETTLE = 60     # seconds after which a written archive is complete
QUIET = '-Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off'


def _java():
    home = os.environ.get('JAVA_HOME')
    java = os.path.join(home, 'bin', 'java') if home else shutil.which('java')
    return os.path.realpath(java) if java else None


def archive_path(cache_dir):
    """The archive for this Java runtime and PySpark, or None when no
    runtime is found."""
    import pyspark
    java = _java()
    if not java or not os.path.exists(java):
        return None
    key = '%s %s %s' % (java, os.path.getmtime(java), pyspark.__version__)
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return os.path.join(cache_dir, 'spark-classes-%s.jsa' % digest)


def _adopt(final, now):
    """Rename a finished archive written by an earlier job to ``final``;
    True if one is being written still."""
    writing = False
    for partial in glob.glob(final + '.*.tmp'):
        try:
            if now - os.path.getmtime(partial) < SETTLE:
                writing = True
            elif not os.path.exists(final):
                os.replace(partial, final)
            else:
                os.remove(partial)
        except OSError:
            continue    # another job adopted or removed it
    return writing


def java_options(cache_dir, now=None):
    """The JVM options that write or use the archive ('' for none)."""
    if os.environ.get(ENV, '1') == '0':
        return ''
    final = archive_path(cache_dir)
    if final is None:
        return ''
    writing = _adopt(final, time.time() if now is None else now)
    if os.path.exists(final):
        return '-XX:SharedArchiveFile=%s %s' % (final, QUIET)
    if writing:
        return ''
    os.makedirs(cache_dir, exist_ok=True)
    return '-XX:ArchiveClassesAtExit=%s.%d.tmp %s' % (
        final, os.getpid(), QUIET)
