"""Whether a redis store answers: one PING (``base.Probe``)."""

import redis.backoff
import redis.exceptions
import redis.retry

from zaqar_delay.storage import base
from zaqar_delay.storage import common
from zaqar_delay.storage.redis import upstream


class Probe(base.Probe):
    """A PING through upstream's client (Sentinel URIs work), tried once."""

    errors = (OSError, redis.exceptions.RedisError)

    @staticmethod
    def ping(where, timeout):
        client = upstream.client(common.plain_uri(where, 'redis'))
        # One try: redis-py's default retries a refused connection with
        # backoff for seconds.
        client.connection_pool.connection_kwargs.update(
            socket_connect_timeout=timeout,
            retry=redis.retry.Retry(redis.backoff.NoBackoff(), 0))
        client.ping()
