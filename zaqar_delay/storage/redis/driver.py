"""The ``redis.delay`` data driver: upstream's, with delay-aware controllers.

Enable it with ``[drivers] message_store = redis.delay``; it connects with
the ``[drivers:message_store:redis]`` options, like ``redis``. In a pool,
give the pool the URI ``redis.delay://host:port?...``: that URI is used.
"""

import types

from zaqar.common import decorators
from zaqar.storage.redis import driver as upstream

from zaqar_delay.storage import common
from zaqar_delay.storage.redis import claims
from zaqar_delay.storage.redis import messages
from zaqar_delay.storage.redis import scripting

NAME = 'redis.delay'


def connection_uri(conf):
    """The redis URI to use: the pool's ``redis.delay://`` URI, if any."""
    return common.pool_uri(conf, (NAME,), 'redis') or common.plain_uri(
        conf[upstream.drivers_message_store_redis.GROUP_NAME].uri, 'redis')


class DataDriver(common.DelaySettings, upstream.DataDriver):
    """Upstream's redis DataDriver with the delay message and claim
    controllers; every other controller is upstream's."""

    @decorators.lazy_property(write=False)
    def connection(self):
        settings = types.SimpleNamespace(uri=connection_uri(self.conf))
        return upstream._get_redis_client(
            types.SimpleNamespace(redis_conf=settings))

    @decorators.lazy_property(write=False)
    def scripts(self):
        return scripting.Scripts(self.connection)

    @decorators.lazy_property(write=False)
    def message_controller(self):
        return messages.MessageController(self)

    @decorators.lazy_property(write=False)
    def claim_controller(self):
        return claims.ClaimController(self)
