"""The ``wsgi.delay`` WSGI application, for WSGI servers (uwsgi,
gunicorn, mod_wsgi), as Zaqar's ``zaqar.transport.wsgi.app``:

    $ gunicorn zaqar_delay.transport.wsgi.app:application

It reads zaqar.conf from the standard places (``~/.zaqar``,
``/etc/zaqar``), as Zaqar's does.
"""

from oslo_config import cfg
from oslo_log import log

from zaqar_delay.transport.wsgi import bootstrap


def init_application(args=()):
    conf = cfg.CONF     # as Zaqar's server: some of it reads the global
    log.register_options(conf)
    conf(list(args), project='zaqar', prog='zaqar-queues')
    log.setup(conf, 'zaqar')
    return bootstrap.Bootstrap(conf).transport.app


application = init_application()
