"""Whether the stores a command is about to use answer, within seconds.

Zaqar's drivers wait long for a store that does not answer (pymongo's
server selection: 30 s) and then fail with a traceback. Before they
load them, the commands send each store of their config files (the
management store and, unpooled, the message store; or ``--uri``) one
request with a short timeout, the ``probe_class`` of the store's delay
driver (``storage.services``): a store with none is not checked, nor
are pools.
"""

import re

from oslo_config import cfg
from zaqar.conf import opts as zaqar_opts

from zaqar_delay.cmd import failure
from zaqar_delay import errors
from zaqar_delay.storage import services

TIMEOUT = 5.0   # seconds


def hidden(uri):
    """``uri`` without its password."""
    return re.sub(r'(://[^:/@]*:)[^@/]*@', r'\1***@', uri)


def zaqar_conf(config_files):
    """Zaqar's options, read from ``config_files``."""
    conf = cfg.ConfigOpts()
    conf(args=[], project='zaqar', default_config_files=config_files)
    return conf


def stores(conf, uri=None, backend=None):
    """(role, backend, where to ping) of each store to check: ``uri`` of
    ``backend`` alone when given and its probe pings a ``uri`` (a Swift
    store's Keystone comes from ``conf``), else the stores ``conf`` names
    (it gets Zaqar's options) that have a probe."""
    probe = services.service(backend, 'probe') if backend else None
    if uri and (probe is None or probe.option == 'uri'):
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
        probe = services.service(name, 'probe')
        if group not in conf or probe is None:
            continue
        where = probe.where(conf[group])
        if where:
            found.append(('%s (%s)' % (role, name), kind, where))
    return found


def check(found, timeout=TIMEOUT):
    """Raise ``errors.CommandFailure`` naming the first of ``found``
    (``stores``) that does not answer within ``timeout`` seconds."""
    for role, kind, where in found:
        probe = services.service(kind, 'probe')
        if probe is None:
            continue
        try:
            probe.ping(where, timeout)
        except probe.errors as exc:
            raise errors.CommandFailure('cannot reach the %s at %s: %s' % (
                role, hidden(where), failure.brief(exc))) from None
