"""``zaqar-delay-exporter``: Prometheus metrics of the delay stores.

    zaqar-delay-exporter --config-file /etc/zaqar/zaqar.conf [--port N]

Serves ``/metrics`` on ``[delay_metrics] host`` (127.0.0.1 unless set)
and ``port`` (or ``--port``) until stopped (Ctrl-C or SIGTERM); without
a config file (``zaqar_delay.cmd.config``) it does not start. Each
scrape reads the
message store of zaqar.conf, or every pool with ``pooling = True``, a
bounded index read per queue (see ``zaqar_delay.metrics`` and
doc/source/metrics.rst). zaqar-delay-dispatcher ``--metrics-port``
serves the same metrics with the dispatcher's own.
"""

import os
import signal
import sys

from oslo_config import cfg

from zaqar_delay.cmd import config
from zaqar_delay.cmd import failure
from zaqar_delay import errors
from zaqar_delay.cmd import reach
from zaqar_delay.metrics import serve
from zaqar_delay import opts

PROG = 'zaqar-delay-exporter'
# The signals that stop it.
STOP = {signal.SIGINT, signal.SIGTERM}


def main(argv=None):
    return config.main(PROG, _run, [cfg.PortOpt(
        'port', help='port to serve /metrics on (default: '
        '[delay_metrics] port)')], argv)


def _run(conf, argv):
    config.start(conf, argv, PROG)
    reach.check(reach.stores(conf))
    host = conf[opts.METRICS_GROUP].host
    port = conf.port or conf[opts.METRICS_GROUP].port
    stopped = _stop_signals()
    try:
        server = serve.start(conf, port)
    except OSError as exc:
        if isinstance(exc, failure.UNREACHABLE):
            raise
        raise errors.CommandFailure('cannot serve metrics on %s:%d: %s'
                                    % (host, port, exc)) from None
    print('serving metrics on %s:%d' % (host, server.server_port))
    sys.stdout.flush()
    os.read(stopped, 1)
    server.shutdown()
    return 0


def _stop_signals():
    """A pipe end that becomes readable at the first SIGINT or SIGTERM.
    Python's C handler writes to the pipe, in whatever thread gets the
    signal; the Python handler does nothing, so it takes no lock at
    whatever point of the code it runs (an ``Event.set`` there can
    deadlock the ``wait`` it interrupts)."""
    readable, writable = os.pipe()
    os.set_blocking(writable, False)
    signal.set_wakeup_fd(writable)
    for signum in STOP:
        signal.signal(signum, lambda *_: None)
    return readable


if __name__ == '__main__':
    sys.exit(main())
