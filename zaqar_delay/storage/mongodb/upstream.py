"""Upstream Zaqar's private mongodb names that ``mongodb.delay`` uses.

Checked against the releases in ``zaqar_delay.version.CHECKED_ZAQAR``;
``tests/unit/storage/test_upstream.py`` imports this module, so a Zaqar
that lacks one of them fails that test with the name.

Besides these, the controllers rely on what upstream's mongodb
controllers set up in ``__init__`` (``_queue_ctrl``) and on the
inherited methods below.
"""

from zaqar_delay.storage import upstream

_MESSAGES = 'zaqar.storage.mongodb.messages'

# A message document as the API returns it.
basic_message = upstream.private(_MESSAGES, '_basic_message')
# A MongoClient from [drivers:message_store:mongodb]-like options.
connection = upstream.private('zaqar.storage.mongodb.driver', '_connection')
# The message databases are <database><COL_SUFFIX><partition>.
COL_SUFFIX = upstream.private('zaqar.storage.mongodb.driver',
                              'DataDriver._COL_SUFIX')

INHERITED = tuple(upstream.private(_MESSAGES, 'MessageController.' + name)
                  for name in ('_collection', '_get_counter',
                               '_inc_counter'))
