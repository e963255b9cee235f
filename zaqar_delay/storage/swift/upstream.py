"""Upstream Zaqar's private swift names that ``swift.delay`` uses.

Checked against the releases in ``zaqar_delay.version.CHECKED_ZAQAR``;
``tests/unit/storage/test_upstream.py`` imports this module, so a Zaqar
that lacks one of them fails that test with the name.

Besides these, the controllers rely on what upstream's swift controllers
set up in ``__init__`` (``_client``, ``_queue_ctrl``, ``_message_ctrl``)
and on the inherited methods below.
"""

from zaqar_delay.storage import upstream

_UTILS = 'zaqar.storage.swift.utils'

# Container names: 'zaqar_message:<queue>:<project>', 'zaqar_claim:...'.
message_container = upstream.private(_UTILS, '_message_container')
claim_container = upstream.private(_UTILS, '_claim_container')
# PUT an object, creating its container on a 404 first.
put_or_create_container = upstream.private(_UTILS,
                                           '_put_or_create_container')
# A message object as the API returns it.
message_to_json = upstream.private(_UTILS, '_message_to_json')
# A swiftclient connection from [drivers:message_store:swift] options.
ClientWrapper = upstream.private('zaqar.storage.swift.driver',
                                 '_ClientWrapper')

INHERITED = tuple(upstream.private('zaqar.storage.swift.messages', name)
                  for name in ('MessageController._find_message',
                               'MessageController._delete'))
