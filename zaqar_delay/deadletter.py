"""Dead-letter queues: which claimed message moves, where, with what ttl.

Zaqar's queue metadata: with both ``_max_claim_count`` and
``_dead_letter_queue``, a message claimed more than ``_max_claim_count``
times is not delivered by the claim that takes it that once too often:
it moves to the dead-letter queue, due at once, with the ttl
``_dead_letter_queue_messages_ttl`` (when set and not 0), else its own.
Pure: no I/O; each driver moves the message its own way.
"""

import collections

MAX_CLAIM_COUNT = '_max_claim_count'
QUEUE = '_dead_letter_queue'
TTL = '_dead_letter_queue_messages_ttl'

Policy = collections.namedtuple('Policy', 'queue max_claims ttl')
Policy.__doc__ = """A queue's dead-letter policy: the dead-letter queue's
name, the most claims a message may have, and the moved messages' ttl
(None: each keeps its own)."""


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
