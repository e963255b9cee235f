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

import sys

from oslo_config import cfg

from zaqar_delay.cmd import config
from zaqar_delay.cmd import failure
from zaqar_delay import errors
from zaqar_delay.cmd import reach
from zaqar_delay.cmd import signals
from zaqar_delay.metrics import serve
from zaqar_delay import opts

PROG = 'zaqar-delay-exporter'


def main(argv=None):
    return config.main(PROG, _run, [cfg.PortOpt(
        'port', help='port to serve /metrics on (default: '
        '[delay_metrics] port)')], argv)


def _run(conf, argv):
    config.start(conf, argv, PROG)
    reach.check(reach.stores(conf))
    host = conf[opts.METRICS_GROUP].host
    port = conf.port or conf[opts.METRICS_GROUP].port
    stopped = signals.stop_event()
    try:
        server = serve.start(conf, port)
    except OSError as exc:
        if isinstance(exc, failure.unreachable()):
            raise
        raise errors.CommandFailure('cannot serve metrics on %s:%d: %s'
                                    % (host, port, exc)) from None
    print('serving metrics on %s:%d' % (host, server.server_port))
    sys.stdout.flush()
    stopped.wait()
    server.shutdown()
    return 0


if __name__ == '__main__':
    sys.exit(main())
