"""Whether the stores a command is about to use answer, within seconds.

Zaqar's drivers wait long for a store that does not answer (pymongo's
server selection: 30 s) and then fail with a traceback. Before they
load them, the commands send each store of their config files (the
management store and, unpooled, the message store; or ``--uri``) one
request with a short timeout: a redis PING, a MongoDB ping, a GET of a
Swift store's Keystone ``auth_url``. A MongoDB store without ``uri``
is checked where Zaqar's driver connects then, pymongo's default
(``MONGODB_DEFAULT``). Pools are not checked.
"""

import re
import urllib.error
import urllib.request

from oslo_config import cfg
import pymongo
import pymongo.errors
import redis.backoff
import redis.exceptions
import redis.retry
from zaqar.conf import opts as zaqar_opts

from zaqar_delay.cmd import failure
from zaqar_delay import errors
from zaqar_delay.storage import common
from zaqar_delay.storage.redis import upstream as redis_upstream

TIMEOUT = 5.0   # seconds
# Where pymongo, so Zaqar's mongodb drivers, connect without a uri.
MONGODB_DEFAULT = 'mongodb://localhost:27017'


def hidden(uri):
    """``uri`` without its password."""
    return re.sub(r'(://[^:/@]*:)[^@/]*@', r'\1***@', uri)


def zaqar_conf(config_files):
    """Zaqar's options, read from ``config_files``."""
    conf = cfg.ConfigOpts()
    conf(args=[], project='zaqar', default_config_files=config_files)
    return conf


def stores(conf, uri=None, backend=None):
    """(role, backend, URI or Keystone URL) of each store to check:
    ``uri`` of ``backend`` alone when given (but a Swift store's
    Keystone comes from ``conf``), else the stores ``conf`` names (it
    gets Zaqar's options)."""
    if uri and backend != 'swift':
        return [('store', backend, uri)]
    for group, options in zaqar_opts.list_opts_by_group():
        conf.register_opts(options, group=group)
    found = []
    roles = [('management store', conf.drivers.management_store)]
    if not conf.pooling:
        roles.insert(0, ('message store', conf.drivers.message_store))
    for role, name in roles:
        kind = name.split('.')[0]
        group = 'drivers:%s:%s' % (role.replace(' ', '_'), kind)
        if group not in conf:
            continue
        where = (conf[group].auth_url if kind == 'swift'
                 else conf[group].uri)
        if kind == 'mongodb' and not where:
            where = MONGODB_DEFAULT
        if where:
            found.append(('%s (%s)' % (role, name), kind, where))
    return found


def _redis(uri, timeout):
    client = redis_upstream.client(common.plain_uri(uri, 'redis'))
    # One try: redis-py's default retries a refused connection with
    # backoff for seconds.
    client.connection_pool.connection_kwargs.update(
        socket_connect_timeout=timeout,
        retry=redis.retry.Retry(redis.backoff.NoBackoff(), 0))
    client.ping()


def _mongodb(uri, timeout):
    client = pymongo.MongoClient(common.plain_uri(uri, 'mongodb'),
                                 serverSelectionTimeoutMS=timeout * 1000,
                                 connectTimeoutMS=timeout * 1000)
    try:
        client.admin.command('ping')
    finally:
        client.close()


def _keystone(url, timeout):
    try:
        urllib.request.urlopen(url, timeout=timeout).close()
    except urllib.error.HTTPError:
        pass            # it answered


_CHECKS = {'redis': _redis, 'mongodb': _mongodb, 'swift': _keystone}


def check(found, timeout=TIMEOUT):
    """Raise ``errors.CommandFailure`` naming the first of ``found``
    (``stores``) that does not answer within ``timeout`` seconds."""
    for role, kind, where in found:
        if kind not in _CHECKS:
            continue
        try:
            _CHECKS[kind](where, timeout)
        except (OSError, redis.exceptions.RedisError,
                pymongo.errors.PyMongoError) as exc:
            raise errors.CommandFailure('cannot reach the %s at %s: %s' % (
                role, hidden(where), failure.brief(exc))) from None
