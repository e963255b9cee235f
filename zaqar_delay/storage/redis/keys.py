"""Every redis key name the ``redis.delay`` driver uses.

Upstream Zaqar's names are reused so that ``redis`` and ``redis.delay``
read the same store; the index sets added by this driver all have the
``delay.`` infix, which no upstream key has. Queue names cannot contain a
dot, so these names cannot collide with another queue's.
"""

from zaqar.storage.redis import utils

# The six sets of a queue's index, in the order every script takes them.
MESSAGES = 'messages'               # upstream: rank -> id, every message
READY = 'delay.ready'               # rank -> id: due and not claimed
WAITING = 'delay.waiting'           # rank -> id: not due yet
DUE = 'delay.due'                   # due time -> id: not due yet
CLAIMED = 'delay.claimed'           # rank -> id: held by a claim
CLAIM_EXPIRY = 'delay.claim_expiry'  # claim expiry -> id: held by a claim

INDEX_SUFFIXES = (MESSAGES, READY, WAITING, DUE, CLAIMED, CLAIM_EXPIRY)
OWN_SUFFIXES = INDEX_SUFFIXES[1:]

RANK_COUNTER = 'rank_counter'       # upstream: next rank of the queue
CLAIMS = 'claims'                   # upstream: claim expiry -> claim id
CLAIM_MESSAGES = 'messages'         # upstream: messages.<claim id>, a list


def index(queue, project):
    """The six index keys of a queue, in script order."""
    return [utils.scope_message_ids_set(queue, project, suffix)
            for suffix in INDEX_SUFFIXES]


def own(queue, project):
    """The index keys this driver adds (not upstream's message set)."""
    return index(queue, project)[1:]


def rank_counter(queue, project):
    return utils.scope_queue_index(queue, project, RANK_COUNTER)


def claim(queue, project, claim_id):
    """The claims set of a queue, a claim's hash and its message list."""
    return [utils.scope_claims_set(queue, project, CLAIMS),
            claim_id,
            utils.scope_claim_messages(claim_id, CLAIM_MESSAGES)]
