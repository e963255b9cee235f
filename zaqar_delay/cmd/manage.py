"""``zaqar-delay-manage``: operator commands for the delay drivers.

  zaqar-delay-manage --config-file /etc/zaqar/zaqar.conf \\
      redis migrate --to redis.delay [--dry-run] [--batch N]

The redis server is the one of ``[drivers:message_store:redis] uri``, or
``--uri`` (``redis://`` or ``redis.delay://``).
"""

import argparse
import sys

from oslo_config import cfg
from zaqar.conf import drivers_message_store_redis as redis_opts
from zaqar.storage.redis import driver as upstream_driver

from zaqar_delay.storage.redis import driver
from zaqar_delay.storage.redis import migrate
from zaqar_delay.storage.redis import scripting


def _redis_client(args):
    uri = args.uri
    if not uri:
        conf = cfg.ConfigOpts()
        conf.register_opts(redis_opts.ALL_OPTS, group=redis_opts.GROUP_NAME)
        conf(args=[], project='zaqar', default_config_files=args.config_file)
        uri = conf[redis_opts.GROUP_NAME].uri
    uri = uri.replace(driver.NAME + '://', 'redis://', 1)
    settings = argparse.Namespace(redis_conf=argparse.Namespace(uri=uri))
    client = upstream_driver._get_redis_client(settings)
    return client


def _migrate(args, out):
    client = _redis_client(args)
    dry = ' (dry run: nothing written)' if args.dry_run else ''
    total = 0
    if args.to == driver.NAME:
        scripts = scripting.Scripts(client)
        for queue, project in migrate.queues(client):
            done = migrate.Counts(0, 0, 0, 0)
            for counts in migrate.reindex(scripts, queue, project,
                                          args.batch, args.dry_run):
                done = migrate.Counts(*map(sum, zip(done, counts)))
                out.write('%s/%s: %d messages indexed so far%s\n' % (
                    project or '', queue, sum(done), dry))
            out.write('%s/%s: ready %d, waiting %d, claimed %d, '
                      'gone %d%s\n' % ((project or '', queue) + done +
                                       (dry,)))
            total += sum(done)
        out.write('indexed %d messages for redis.delay%s\n' % (total, dry))
    else:
        for queue, project in migrate.queues(client):
            entries = migrate.drop_index(client, queue, project,
                                         args.dry_run)
            total += entries
            out.write('%s/%s: dropped %d index entries%s\n' % (
                project or '', queue, entries, dry))
        out.write('dropped %d index entries; the store is ready for '
                  'redis%s\n' % (total, dry))
    return 0


def parser():
    top = argparse.ArgumentParser(prog='zaqar-delay-manage',
                                  description=__doc__.splitlines()[0])
    top.add_argument('--config-file', action='append', default=[],
                     help='zaqar.conf to read the store URI from')
    top.add_argument('--uri', help='redis URI (overrides --config-file)')
    backends = top.add_subparsers(dest='backend', required=True)
    redis_cmd = backends.add_parser('redis', help='redis store commands')
    actions = redis_cmd.add_subparsers(dest='action', required=True)
    mig = actions.add_parser(
        'migrate', help='switch a live store between redis and redis.delay')
    mig.add_argument('--to', required=True, choices=[driver.NAME, 'redis'],
                     help='the driver every zaqar-server now uses')
    mig.add_argument('--dry-run', action='store_true',
                     help='count and report, write nothing')
    mig.add_argument('--batch', type=int, default=1000,
                     help='messages per atomic step (default 1000)')
    mig.set_defaults(func=_migrate)
    return top


def main(argv=None, out=sys.stdout):
    args = parser().parse_args(argv)
    if not args.uri and not args.config_file:
        parser().error('give --config-file or --uri')
    if args.batch < 1:
        parser().error('--batch must be at least 1')
    return args.func(args, out)


if __name__ == '__main__':
    sys.exit(main())
