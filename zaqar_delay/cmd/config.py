"""The config files of the long-running commands (the dispatcher and
the exporter): given with ``--config-file``, or found where oslo.config
looks for ``zaqar.conf`` (``~/.zaqar/``, ``~/``, ``/etc/zaqar/``,
``/etc/``). Without one, a command would read Zaqar's defaults (a
MongoDB on localhost) and wait for it: it refuses to start instead.
"""

from oslo_log import log as logging

from zaqar_delay.cmd import noise
from zaqar_delay import errors


def parse(conf, argv, prog):
    """Parse ``argv`` into ``conf`` (project ``zaqar``); UsageFailure
    when no config file is given or found. A missing or unreadable file
    raises oslo.config's errors (``failure.run`` reports them)."""
    conf(args=argv, project='zaqar', prog=prog)
    if not conf.config_file and not conf.config_dir:
        raise errors.UsageFailure(
            'no config file: give --config-file (the zaqar.conf of the '
            'store; none in ~/.zaqar/, ~/, /etc/zaqar/ or /etc/)')


def start(conf, argv, prog):
    """``parse``, then the command's logging, with osprofiler's start-up
    error kept out of it (``noise``)."""
    parse(conf, argv, prog)
    logging.setup(conf, prog)
    noise.quiet_profiler()
