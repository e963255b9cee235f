"""``redis.delay`` as a management store: upstream's, with queue names
listed whole and queue records written by scripts.

Upstream's redis queue controller lists a project's queues from its
sorted set ``<project>.queues_set`` (members ``<project>.<queue>``) and
names each by the text between the first and second dot: a queue
``orders.eu`` is listed as ``orders``, one of project ``tenant.a`` as
``a``, and a page's marker then names no queue. This controller strips
the member's known ``<project>.`` prefix instead. Its queue writes
(create, metadata, delete) are scripts (``scripts/queue_*.lua``,
upstream's layout) sent as the data store's are: with
``[drivers:management_store:redis.delay] wait_replicas``, each is
acknowledged only once replicated (doc/source/high_availability.rst).
Everything else is upstream's. Its methods take project ids through
``projects.scoped``, as the ``redis.delay`` data driver's do
(doc/source/redis.rst, "Project ids in keys"). Select it with
``[drivers] management_store = redis.delay`` (same
``[drivers:management_store:redis]`` section).
"""

from oslo_utils import encodeutils
from oslo_utils import timeutils
from zaqar import storage
from zaqar.common import decorators
from zaqar.storage import errors
from zaqar.storage.redis import driver
from zaqar.storage.redis import queues
from zaqar.storage.redis import utils

from zaqar_delay import opts
from zaqar_delay.storage.redis import driver as delay_driver
from zaqar_delay.storage.redis import projects
from zaqar_delay.storage.redis import scripting


class _QueueController(queues.QueueController):
    """Upstream's, with ``list`` naming queues whole and each write
    one of the driver's scripts: one request, its exists check inside
    (upstream's makes a request for it first)."""

    def _record(self, name, project):
        """KEYS of the ``queue_*`` scripts: the project's queue set and
        the queue's record."""
        return (utils.scope_queue_name(queues.QUEUES_SET_STORE_NAME,
                                       project),
                utils.scope_queue_name(name, project))

    @utils.raises_conn_error
    def _create(self, name, metadata=None, project=None):
        """True if made, False if the queue exists; NotReplicated."""
        return bool(self.driver.scripts['queue_create'](
            keys=self._record(name, project),
            args=[self._packer(metadata or {}), timeutils.utcnow_ts()]))

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def set_metadata(self, name, metadata, project=None):
        """Replace the metadata; QueueDoesNotExist, NotReplicated."""
        if not self.driver.scripts['queue_update'](
                keys=self._record(name, project),
                args=[self._packer(metadata)]):
            raise errors.QueueDoesNotExist(name, project)

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def _delete(self, name, project=None):
        """Delete the queue's record, if any; NotReplicated."""
        self.driver.scripts['queue_delete'](
            keys=self._record(name, project))

    @utils.raises_conn_error
    @utils.retries_on_connection_error
    def _list(self, project=None, kfilter=None, marker=None,
              limit=storage.DEFAULT_QUEUES_PER_PAGE, detailed=False,
              name=None):
        """A page of the project's queues after ``marker``, in name
        order: ``limit`` names read from the project's queue set, then
        one pipelined read of their records (two round trips)."""
        client = self._client
        listed = utils.scope_queue_name(queues.QUEUES_SET_STORE_NAME,
                                        project)
        prefix = utils.scope_queue_name('', project)
        start = 0
        if marker:
            rank = client.zrank(listed, prefix + marker)
            start = 0 if rank is None else rank + 1
        members = client.zrange(listed, start, start + limit - 1)
        with client.pipeline() as pipe:
            for member in members:
                pipe.hmget(member, ['c', 'm'])
            records = pipe.execute() if members else []
        page = []
        for member, (_, metadata) in zip(members, records):
            queue = {'name': encodeutils.safe_decode(member)[len(prefix):]}
            if detailed:
                queue['metadata'] = self._unpacker(metadata)
            page.append(queue)
        yield iter(page)
        yield page and page[-1]['name']


QueueController = projects.scoped(_QueueController)


class ControlDriver(driver.ControlDriver):
    """Upstream's redis management store with ``QueueController``;
    ``replication`` as the data driver's (``delay_driver.replication``,
    on this store's connection)."""

    def __init__(self, conf, cache):
        super().__init__(conf, cache)
        self.replication = delay_driver.replication(
            self.conf, self.connection, opts.MANAGEMENT_GROUP)

    @decorators.lazy_property(write=False)
    def scripts(self):
        return scripting.Scripts(self.connection, self.replication)

    @decorators.lazy_property(write=False)
    def queue_controller(self):
        return QueueController(self)
