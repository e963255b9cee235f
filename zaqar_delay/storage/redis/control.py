"""``redis.delay`` as a management store: upstream's, with queue names
listed whole.

Upstream's redis queue controller lists a project's queues from its
sorted set ``<project>.queues_set`` (members ``<project>.<queue>``) and
names each by the text between the first and second dot: a queue
``orders.eu`` is listed as ``orders``, one of project ``tenant.a`` as
``a``, and a page's marker then names no queue. This controller strips
the member's known ``<project>.`` prefix instead; everything else is
upstream's. Its methods take project ids through ``projects.scoped``,
as the ``redis.delay`` data driver's do (doc/source/redis.rst,
"Project ids in keys"). Select it with ``[drivers] management_store =
redis.delay`` (same ``[drivers:management_store:redis]`` section).
"""

from oslo_utils import encodeutils
from zaqar import storage
from zaqar.common import decorators
from zaqar.storage.redis import driver
from zaqar.storage.redis import queues
from zaqar.storage.redis import utils

from zaqar_delay.storage.redis import projects


class _QueueController(queues.QueueController):
    """Upstream's, with ``list`` naming queues whole."""

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
    """Upstream's redis management store with ``QueueController``."""

    @decorators.lazy_property(write=False)
    def queue_controller(self):
        return QueueController(self)
