"""``zaqar-delay-server``: ``zaqar-server`` with the ``wsgi.delay``
transport (``zaqar_delay.transport.wsgi``).

  zaqar-delay-server --config-file /etc/zaqar/zaqar.conf

Takes the same zaqar.conf; ``[drivers:transport:wsgi]`` ``bind`` and
``port`` say where it listens.
"""

import sys

from oslo_config import cfg
from oslo_log import log

from zaqar_delay.transport.wsgi import bootstrap


def main(argv=None):
    conf = cfg.CONF     # as Zaqar's server: some of it reads the global
    log.register_options(conf)
    conf(argv, project='zaqar', prog='zaqar-delay-server')
    log.setup(conf, 'zaqar')
    bootstrap.Bootstrap(conf).run()
    return 0


if __name__ == '__main__':
    sys.exit(main())
