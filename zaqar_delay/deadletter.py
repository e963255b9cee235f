"""Dead-letter queues: which claimed message moves, where, with what ttl.

Zaqar's queue metadata: with both ``_max_claim_count`` and
``_dead_letter_queue``, a message claimed more than ``_max_claim_count``
times is not delivered by the claim that takes it that once too often:
it moves to the dead-letter queue, due at once, with the ttl
``_dead_letter_queue_messages_ttl`` (when set and not 0), else its own.
Pure: no I/O; each driver moves the message its own way.
"""

import collections
import re

from oslo_serialization import jsonutils

from zaqar_delay import delay
from zaqar_delay import errors

MAX_CLAIM_COUNT = '_max_claim_count'
QUEUE = '_dead_letter_queue'
TTL = '_dead_letter_queue_messages_ttl'

# Zaqar's rule for queue names (zaqar.transport.validation).
QUEUE_NAME = re.compile(r'^[a-zA-Z0-9_.-]{1,64}$')

Policy = collections.namedtuple('Policy', 'queue max_claims ttl')
Policy.__doc__ = """A queue's dead-letter policy: the dead-letter queue's
name, the most claims a message may have, and the moved messages' ttl
(None: each keeps its own)."""


def check(metadata):
    """Raise Refused for a ``_max_claim_count`` that is not a whole
    number of at least 0 or a ``_dead_letter_queue`` that is not a
    queue name (null stands for absent)."""
    count = metadata.get(MAX_CLAIM_COUNT)
    if count is not None and (not delay.whole(count) or count < 0):
        raise errors.Refused(
            '{0} must be a whole number of claims, not {1}.',
            MAX_CLAIM_COUNT, jsonutils.dumps(count))
    name = metadata.get(QUEUE)
    if name is not None and not (isinstance(name, str) and
                                 QUEUE_NAME.match(name)):
        raise errors.Refused(
            '{0} must name a queue (1 to 64 letters, digits, _, - or .), '
            'not {1}.', QUEUE, jsonutils.dumps(name))


def of_queue(metadata):
    """The queue's Policy, or None when it has none."""
    metadata = metadata or {}
    if MAX_CLAIM_COUNT not in metadata or QUEUE not in metadata:
        return None
    return Policy(metadata[QUEUE], metadata[MAX_CLAIM_COUNT],
                  metadata.get(TTL) or None)


def moves(policy, claim_count):
    """Whether a message claimed ``claim_count`` times (the claim that
    takes it included) goes to the dead-letter queue."""
    return policy is not None and claim_count > policy.max_claims
