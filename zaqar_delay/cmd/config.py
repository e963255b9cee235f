"""The options and config files of the long-running commands (the
dispatcher and the exporter). A config file is given with
``--config-file``, or found where oslo.config looks for ``zaqar.conf``
(``~/.zaqar/``, ``~/``, ``/etc/zaqar/``, ``/etc/``). Without one, a
command would read Zaqar's defaults (a MongoDB on localhost) and wait
for it: it refuses to start instead.
"""

import sys

from oslo_config import cfg
from oslo_log import log as logging

from zaqar_delay.cmd import failure
from zaqar_delay.cmd import noise
from zaqar_delay import errors
from zaqar_delay import opts


def main(prog, run, cli_opts, argv=None):
    """The exit status of ``run(conf, argv)`` (``failure.run``): ``conf``
    holds oslo.log's options, ``cli_opts`` and zaqar-delay's options;
    ``argv`` is the command line without the program name
    (``sys.argv[1:]`` unless given)."""
    conf = cfg.ConfigOpts()
    logging.register_options(conf)
    conf.register_cli_opts(cli_opts)
    opts.register_opts(conf)
    return failure.run(prog, run, conf,
                       sys.argv[1:] if argv is None else argv)


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
