"""Upstream Zaqar's private redis names that ``redis.delay`` uses.

Checked against the releases in ``zaqar_delay.version.CHECKED_ZAQAR``;
``tests/unit/storage/test_upstream.py`` imports this module, so a Zaqar
that lacks one of them fails that test with the name.

Besides these, the controllers rely on what upstream's redis controllers
set up in ``__init__`` (``_client``, ``_queue_ctrl``; the queue
controller's ``_client``, in ``metadata``; its ``_packer``, in
``control``) and on the inherited methods below.
"""

import types

from zaqar_delay.storage import upstream

# The msgpack encoding of a message body that upstream reads back.
pack = upstream.private('zaqar.storage.redis.models', '_pack')
unpack = upstream.private('zaqar.storage.redis.models', '_unpack')
# A redis client (with sentinel support) from an object with a
# ``redis_conf.uri``.
get_redis_client = upstream.private('zaqar.storage.redis.driver',
                                    '_get_redis_client')


def client(uri):
    """A redis client for ``uri`` (a ``redis://`` one), as upstream's."""
    return get_redis_client(types.SimpleNamespace(
        redis_conf=types.SimpleNamespace(uri=uri)))


INHERITED = (
    # Whether a claim lives (a bool); redis.delay's refines it.
    upstream.private('zaqar.storage.redis.claims',
                     'ClaimController._exists'),
)
