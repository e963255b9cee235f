"""``zaqar-delay-manage`` in the test's process, for what it refuses."""

import io

import fixtures

from zaqar_delay.cmd import manage


def keeps_no_history(conf, queue, project):
    """Whether ``history`` of the queue fails as for a queue that keeps
    no history: status 1, nothing on stdout, that reason on stderr."""
    out, err = io.StringIO(), io.StringIO()
    with fixtures.MonkeyPatch('sys.stderr', err):
        status = manage.main(['--config-file', conf, 'history', queue,
                              '--project', project], out=out)
    return (status, out.getvalue()) == (1, '') and \
        'keeps no history' in err.getvalue()


def refused(conf, *argv):
    """(status, stdout, stderr) of a command expected to fail."""
    out, err = io.StringIO(), io.StringIO()
    with fixtures.MonkeyPatch('sys.stderr', err):
        status = manage.main(['--config-file', conf] + list(argv), out=out)
    return status, out.getvalue(), err.getvalue()
