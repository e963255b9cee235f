"""Zaqar's bootstrap, serving the ``wsgi.delay`` transport.

Zaqar's ``[drivers] transport`` takes ``wsgi`` or ``websocket`` only,
so ``zaqar-delay-server`` and the WSGI application
(``zaqar_delay.transport.wsgi.app``) build it themselves: a zaqar.conf
whose transport is ``wsgi`` (the default) is served by ``wsgi.delay``;
one with ``websocket`` by Zaqar's own websocket transport.
"""

from zaqar import bootstrap
from zaqar.common import consts
from zaqar.common import decorators

from zaqar_delay.transport.wsgi import driver


class Bootstrap(bootstrap.Bootstrap):

    @decorators.lazy_property(write=False)
    def transport(self):
        if self.driver_conf.transport == consts.TRANSPORT_WEBSOCKET:
            return super().transport
        return driver.Driver(self.conf, self.storage, self.cache,
                             self.control)
