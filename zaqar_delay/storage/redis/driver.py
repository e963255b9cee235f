"""The ``redis.delay`` data driver: upstream's, with delay-aware controllers.

Enable it with ``[drivers] message_store = redis.delay``; it connects with
the ``[drivers:message_store:redis]`` options, like ``redis``. In a pool,
give the pool the URI ``redis.delay://host:port?...``: that URI is used.
A Sentinel URI (``redis://s1:26379,s2:26379?master=NAME``) works in both
places. ``[drivers:message_store:redis.delay] wait_replicas`` (or a
pool option of that name) makes every acknowledged write a replicated
one (doc/source/high_availability.rst). Its controllers take project
ids through ``projects.scoped`` (doc/source/redis.rst, "Project ids in
keys").
"""

from zaqar.common import decorators
from zaqar.common import errors as zaqar_errors
from zaqar.conf import drivers_message_store_redis as redis_opts
from zaqar.storage.redis import driver as upstream_driver
from zaqar.storage.redis import subscriptions

from zaqar_delay import opts
from zaqar_delay.storage import common
from zaqar_delay.storage.redis import messages
from zaqar_delay.storage.redis import metadata
from zaqar_delay.storage.redis import claims
from zaqar_delay.storage.redis import projects
from zaqar_delay.storage.redis import scripting
from zaqar_delay.storage.redis import upstream

NAME = 'redis.delay'


def connection_uri(conf):
    """The redis URI to use: the pool's ``redis.delay://`` URI, if any."""
    return common.plain_uri(common.pool_options(
        conf, (NAME,), 'redis', redis_opts.GROUP_NAME).uri, 'redis')


def replication(conf, connection, group=opts.REDIS_GROUP):
    """``scripting.Replication`` from ``[drivers:message_store:
    redis.delay]`` (or ``opts.MANAGEMENT_GROUP``), which it registers;
    raises ConfigurationError when WAIT could outlast the connection's
    socket timeout (the reply would be cut off)."""
    register = {opts.REDIS_GROUP: opts.register_redis_opts,
                opts.MANAGEMENT_GROUP: opts.register_management_opts}
    register[group](conf)
    group = conf[group]
    wanted = scripting.Replication(int(group.wait_replicas),
                                   int(group.wait_timeout_ms))
    if not wanted.replicas:
        return scripting.NO_WAIT
    socket_timeout = connection.connection_pool.connection_kwargs.get(
        'socket_timeout')
    if socket_timeout and wanted.timeout_ms >= socket_timeout * 1000:
        raise zaqar_errors.ConfigurationError(
            'wait_timeout_ms (%d) must be below the redis socket_timeout '
            '(%s s): raise socket_timeout in the URI or lower '
            'wait_timeout_ms' % (wanted.timeout_ms, socket_timeout))
    return wanted


class DataDriver(common.DelaySettings, upstream_driver.DataDriver,
                 backend=__package__):
    """Upstream's redis DataDriver with the delay message and claim
    controllers."""

    message_class = projects.scoped(messages.MessageController)
    claim_class = projects.scoped(claims.ClaimController)
    subscription_class = projects.scoped(
        subscriptions.SubscriptionController)

    def __init__(self, conf, cache, control_driver):
        super().__init__(conf, cache, control_driver)
        self.replication = replication(self.conf, self.connection)

    @decorators.lazy_property(write=False)
    def connection(self):
        return upstream.client(connection_uri(self.conf))

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
    def queue_controller(self):
        return projects.queue_controller(self.control_driver)

    @decorators.lazy_property(write=False)
    def queue_metadata(self):
        """The queues' packed metadata as last seen (``metadata.Cache``),
        shared by the controllers; None when the queues are in another
        database (the scripts cannot check it)."""
        if metadata.same_database(self.queue_controller, self.connection):
            return metadata.Cache(self.connection)
        return None

    @decorators.lazy_property(write=False)
    def scripts(self):
        return scripting.Scripts(self.connection, self.replication)
