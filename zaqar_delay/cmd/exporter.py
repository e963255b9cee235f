"""``zaqar-delay-exporter``: Prometheus metrics of the delay stores.

    zaqar-delay-exporter --config-file /etc/zaqar/zaqar.conf [--port N]

Serves ``/metrics`` on ``[delay_metrics] host`` and ``port`` (or
``--port``) until stopped (Ctrl-C or SIGTERM): each scrape reads the
message store of zaqar.conf, or every pool with ``pooling = True``, a
bounded index read per queue (see ``zaqar_delay.metrics`` and
doc/source/metrics.rst). zaqar-delay-dispatcher ``--metrics-port``
serves the same metrics with the dispatcher's own.
"""

import signal
import sys
import threading

from oslo_config import cfg
from oslo_log import log as logging

from zaqar_delay.metrics import serve
from zaqar_delay import opts


def main(argv=None):
    conf = cfg.ConfigOpts()
    logging.register_options(conf)
    conf.register_cli_opt(cfg.PortOpt(
        'port', help='port to serve /metrics on (default: '
        '[delay_metrics] port)'))
    opts.register_opts(conf)
    conf(args=sys.argv[1:] if argv is None else argv, project='zaqar',
         prog='zaqar-delay-exporter')
    logging.setup(conf, 'zaqar-delay-exporter')
    port = conf.port or conf[opts.METRICS_GROUP].port
    server = serve.start(conf, port)
    print('serving metrics on %s:%d' % (conf[opts.METRICS_GROUP].host,
                                        server.server_port))
    sys.stdout.flush()
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    stop.wait()
    server.shutdown()
    return 0


if __name__ == '__main__':
    sys.exit(main())
