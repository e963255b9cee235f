"""The metrics HTTP server of zaqar-delay-exporter and of
zaqar-delay-dispatcher ``--metrics-port``."""

import prometheus_client

from zaqar_delay.metrics import collector
from zaqar_delay.metrics import process
from zaqar_delay.metrics import stores
from zaqar_delay import opts


def registry(conf, dispatcher=False):
    """A registry with the stores' collector of ``conf``; with
    ``dispatcher``, the process's own (``process.REGISTRY``)."""
    found = (process.REGISTRY if dispatcher
             else prometheus_client.CollectorRegistry(auto_describe=False))
    found.register(collector.StoreCollector.from_conf(
        stores.Stores(conf).current, conf))
    return found


def start(conf, port, dispatcher=False):
    """Serve ``registry(conf, dispatcher)`` on ``[delay_metrics] host``
    and ``port`` from a daemon thread; return the HTTP server."""
    server, _ = prometheus_client.start_http_server(
        port, addr=conf[opts.METRICS_GROUP].host,
        registry=registry(conf, dispatcher))
    return server
