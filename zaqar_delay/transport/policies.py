"""The policy rules of ``wsgi.delay``'s routes, beside Zaqar's.

Like Zaqar's own, they are listed by ``oslopolicy-sample-generator
--namespace zaqar --namespace zaqar_delay`` (entry point
``oslo.policy.policies``) and default as ``messages:delete`` does.
"""

from oslo_policy import policy
from zaqar.common.policies import base

UPDATE = 'messages:update'
MOVE = 'messages:move'

rules = [
    policy.DocumentedRuleDefault(
        name=UPDATE, check_str=base.UNPROTECTED,
        description='Reschedule a message: change its due time.',
        operations=[{'path': '/v2/queues/{queue_name}/messages/'
                             '{message_id}', 'method': 'PATCH'}]),
    policy.DocumentedRuleDefault(
        name=MOVE, check_str=base.UNPROTECTED,
        description='Move messages to another queue of the project.',
        operations=[{'path': '/v2/queues/{queue_name}/messages/move',
                     'method': 'POST'}]),
]


def list_rules():
    return rules


def register(enforcer):
    """Add the rules to Zaqar's policy ``enforcer``."""
    enforcer.register_defaults(rules)
