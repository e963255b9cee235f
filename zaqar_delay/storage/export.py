"""Stream a live store's messages out as JSON lines (``export``).

One record per message, whatever the backend, with times as UNIX
seconds (see :data:`FIELDS`). The records are what the ``audit``
pipeline job reads. Each backend's ``export_class`` (``base.Export``,
found by ``services``) reads its own records, a page at a time; nothing
is held in memory but a page and the claims seen so far.
"""

import json

from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import timeutils
from osprofiler import opts as profiler_opts
from zaqar.common import cache as oslo_cache
from zaqar.conf import opts as zaqar_opts
from zaqar.storage import utils as storage_utils

from zaqar_delay import errors as delay_errors
from zaqar_delay.storage import services

#: Every field of an export record, in order.
FIELDS = ('project', 'queue', 'id', 'created', 'ttl', 'expires', 'due',
          'delay', 'claim_id', 'claimed_at', 'claim_expires', 'claim_count',
          'snapshot_at', 'body')


def record(id, created, ttl, expires, due, claim_id, claim_expires,
           claim_count, body):
    """A backend's raw fields as an export record (project, queue,
    claim time and snapshot time are filled in by :func:`messages`).
    ``due`` is None for a message stored without a due time; such a
    message counts as due."""
    return {'id': id, 'created': created, 'ttl': ttl, 'expires': expires,
            'due': due, 'delay': None if due is None else due - created,
            'claim_id': claim_id, 'claim_expires': claim_expires,
            'claim_count': claim_count or 0, 'body': body}


def configure(config_files):
    """Zaqar's options read from the config files, with the cache and
    control driver they name: ``(conf, cache, control driver)``."""
    conf = cfg.ConfigOpts()
    logging.register_options(conf)     # swift's driver reads [DEFAULT] debug
    for group, options in zaqar_opts.list_opts_by_group():
        conf.register_opts(options, group=group)
    profiler_opts.set_defaults(conf)
    conf(args=[], project='zaqar', default_config_files=config_files)
    oslo_cache.register_config(conf)
    cache = oslo_cache.get_cache(conf)
    control = storage_utils.load_storage_driver(conf, cache,
                                                control_mode=True)
    return conf, cache, control


def load(config_files):
    """The message store named in the config files, with its control
    driver: ``(store name, control driver, data driver)``. Pooled
    deployments are exported a pool at a time, with a config file
    whose ``message_store`` and uri are that pool's."""
    conf, cache, control = configure(config_files)
    if conf.pooling:
        raise delay_errors.ExportError(
            'pooling is enabled: export one pool at a time, with a config '
            'file that names its store')
    name = conf.drivers.message_store
    if services.service(name, 'export') is None:
        raise delay_errors.ExportError(
            'cannot export a %r message store' % name)
    data = storage_utils.load_storage_driver(conf, cache,
                                             control_driver=control)
    return name, control, data


def queues(control, project, page=100):
    """Every queue name of a project, in name order."""
    marker = None
    while True:
        listing = next(control.queue_controller.list(
            project=project, marker=marker, limit=page))
        names = [q['name'] for q in listing]
        yield from names
        if len(names) < page:
            return
        marker = names[-1]


def messages(name, data, queue, project, batch=1000, with_body=False):
    """The queue's messages as export records, in posting order."""
    exporter = services.service(name, 'export')(data)
    claims = {}
    for rec in exporter.records(queue, project, batch):
        now = timeutils.utcnow_ts(True)
        if rec['expires'] is not None and rec['expires'] <= now:
            continue
        live = rec['claim_id'] and (rec['claim_expires'] is None or
                                    rec['claim_expires'] > now)
        if live and rec['claim_id'] not in claims:
            claims[rec['claim_id']] = exporter.claimed_at(
                queue, project, rec['claim_id'])
        rec['claimed_at'] = live and claims[rec['claim_id']] or None
        if rec['claimed_at'] is None:
            rec['claim_id'] = rec['claim_expires'] = None
        rec.update(project=project, queue=queue, snapshot_at=now)
        if not with_body:
            rec['body'] = None
        yield {field: rec[field] for field in FIELDS}


def write(records, out):
    """Write records as JSON lines; returns how many."""
    count = 0
    for count, rec in enumerate(records, 1):
        out.write(json.dumps(rec, separators=(',', ':'), default=str))
        out.write('\n')
    return count
