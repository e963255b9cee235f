"""``zaqar-delay-dispatcher``: push delayed messages to subscribers when due.

    zaqar-delay-dispatcher --config-file /etc/zaqar/zaqar.conf [--once]

Reads the message store of zaqar.conf (a delay driver, with
``zaqar_delay.notification.notifier`` in ``[storage] message_pipeline``)
and pushes its due pushes until stopped (Ctrl-C or SIGTERM), or one
batch with ``--once`` (it waits until each of that batch's pushes is
done). Run any number, on any hosts; see
``zaqar_delay.push.runner``. With ``pooling = True`` it pushes for
every pool that keeps pending pushes (``zaqar_delay.push.pools``). A
store it cannot reach when it starts (a redis primary being failed
over, a server still starting) is tried again, after 1, 2, 4... up to
``LOAD_WAIT_MAX`` seconds, until it loads or the command is stopped
(with ``--once``, it is not: the command fails). Without a config file
(``zaqar_delay.cmd.config``) it does not start. With ``--metrics-port
N`` it serves Prometheus metrics on that port: zaqar-delay-exporter's
and its own pushes and ticks (``zaqar_delay.metrics``).
"""

import functools
import os
import sys

from oslo_config import cfg
from oslo_log import log as logging
from zaqar import bootstrap
from zaqar.common import errors as zaqar_errors
from zaqar.storage import utils as storage_utils

from zaqar_delay.cmd import config
from zaqar_delay import errors
from zaqar_delay.cmd import reach
from zaqar_delay.cmd import signals
from zaqar_delay.metrics import serve
from zaqar_delay import opts
from zaqar_delay.push import pools
from zaqar_delay.push import runner

LOG = logging.getLogger(__name__)
PROG = 'zaqar-delay-dispatcher'
LOAD_WAIT_MAX = 30  # seconds between two tries to load the store


def build(conf):
    """A Runner for the message store of ``conf`` (PoolDispatchers
    for a pooled deployment)."""
    boot = bootstrap.Bootstrap(conf)
    if conf.pooling:
        return pools.PoolDispatchers(conf, boot.control)
    data = storage_utils.load_storage_driver(conf, boot.cache,
                                             control_driver=boot.control)
    if not getattr(data, 'pushes', False):
        raise errors.CommandFailure(
            '%s keeps no pending pushes: use a delay driver and put '
            'zaqar_delay.notification.notifier in [storage] '
            'message_pipeline' % conf['drivers'].message_store)
    return runner.build(data, boot.control.queue_controller, conf)


def _built(conf, stop, check=None):
    """``build(conf)``, tried again while the store cannot be reached
    (``check()`` raises ``errors.CommandFailure``, or loading it fails);
    None if ``stop`` is set first."""
    wait = 1
    while True:
        try:
            if check is not None:
                check()
            return build(conf)
        except errors.CommandFailure as exc:
            problem = str(exc)
        except zaqar_errors.InvalidDriver as exc:
            problem = 'the message store cannot be loaded: %s' % exc
        # Outside the handler: oslo.log would append the exception.
        LOG.warning('%s (trying again in %d s)', problem, wait)
        if stop.wait(wait):
            return None
        wait = min(2 * wait, LOAD_WAIT_MAX)


def main(argv=None):
    return config.main(PROG, _run, [
        cfg.BoolOpt('once', default=False, help='push one batch and exit'),
        cfg.PortOpt('metrics-port', help='serve Prometheus metrics (the '
                    'stores\' and this dispatcher\'s) on this port')], argv)


def _run(conf, argv):
    config.start(conf, argv, PROG)
    if conf.metrics_port:
        serve.start(conf, conf.metrics_port, dispatcher=True)
    check = functools.partial(reach.check, reach.stores(conf))
    if conf.once:
        check()
        pusher = build(conf)
        taken = pusher.run_once()
        # Every subscriber's delivery ends within the lease.
        left = pusher.drain(conf[opts.PUSH_GROUP].lease)
        print('pushed %d' % (taken - left))
        sys.stdout.flush()
        os._exit(0)
    stop = signals.stop_event()
    pusher = _built(conf, stop, check)
    if pusher is None:
        return 0
    pusher.run(stop)
    # Deliveries still waiting for a slot or a retry are left: their
    # pushes are still leased, and taken again when the lease ends.
    sys.stdout.flush()
    os._exit(0)


if __name__ == '__main__':
    sys.exit(main())
