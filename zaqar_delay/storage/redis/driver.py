"""The ``redis.delay`` data driver: upstream's, with delay-aware controllers.

Enable it with ``[drivers] message_store = redis.delay``; it connects with
the ``[drivers:message_store:redis]`` options, like ``redis``. In a pool,
give the pool the URI ``redis.delay://host:port?...``: that URI is used.
"""

import types

from zaqar.common import decorators
from zaqar.conf import drivers_message_store_redis as redis_opts
from zaqar.storage.redis import driver as upstream_driver

from zaqar_delay.storage import common
from zaqar_delay.storage.redis import claims
from zaqar_delay.storage.redis import messages
from zaqar_delay.storage.redis import pushes
from zaqar_delay.storage.redis import scripting
from zaqar_delay.storage.redis import upstream

NAME = 'redis.delay'


def connection_uri(conf):
    """The redis URI to use: the pool's ``redis.delay://`` URI, if any."""
    return common.pool_uri(conf, (NAME,), 'redis') or common.plain_uri(
        conf[redis_opts.GROUP_NAME].uri, 'redis')


def client(uri):
    """A redis client for ``uri`` (a ``redis://`` one), as upstream's."""
    return upstream.get_redis_client(types.SimpleNamespace(
        redis_conf=types.SimpleNamespace(uri=uri)))


class DataDriver(common.DelaySettings, upstream_driver.DataDriver):
    """Upstream's redis DataDriver with the delay message and claim
    controllers."""

    message_class = messages.MessageController
    claim_class = claims.ClaimController
    push_class = pushes.Pushes

    @decorators.lazy_property(write=False)
    def connection(self):
        return client(connection_uri(self.conf))

    def now(self):
        if self.delay_conf.redis_server_clock:
            return int(self._server_time())
        return super().now()

    def clock(self):
        if self.delay_conf.redis_server_clock:
            return self._server_time()
        return super().clock()

    def _server_time(self):
        """The redis server's time (``[delay] redis_server_clock``)."""
        seconds, micros = self.connection.time()
        return seconds + micros / 1e6

    @decorators.lazy_property(write=False)
    def scripts(self):
        return scripting.Scripts(self.connection)
