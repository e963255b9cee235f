"""A subscriber's retry policy, and what an answer means. No I/O.

The policy is Zaqar's ``_retry_policy`` (the subscription's options, or
the queue's metadata; the queue's wins with
``ignore_subscription_override``), read as Zaqar's webhook task reads
it: ``retries_with_no_delay`` retries at once, ``minimum_delay_retries``
after ``minimum_delay`` seconds each, the waits of the backoff function
from ``minimum_delay`` to ``maximum_delay``, then
``maximum_delay_retries`` after ``maximum_delay`` each.
"""

from zaqar_delay.push import upstream

DONE, RETRY, FAILED = 'done', 'retry', 'failed'

RETRIED = frozenset((408, 425, 429))    # besides every 5xx


def chosen(subscription_policy, queue_policy):
    """The policy that applies, as Zaqar's webhook task chooses it."""
    subscription_policy = subscription_policy or {}
    queue_policy = queue_policy or {}
    if (subscription_policy.get('ignore_subscription_override') or
            queue_policy.get('ignore_subscription_override')):
        return queue_policy
    return subscription_policy or queue_policy


def waits(policy):
    """Seconds to wait before each retry after the first attempt."""
    get = dict(upstream.DEFAULTS, **(policy or {})).get
    low, high = get('minimum_delay'), get('maximum_delay')
    backoff = upstream.BACKOFF[policy.get('retry_backoff_function',
                                          upstream.LINEAR)
                               if policy else upstream.LINEAR]
    try:
        backed_off = list(backoff(low, high, upstream.LINEAR_INTERVAL))
    except (ArithmeticError, ValueError):
        backed_off = []     # Zaqar's functions divide by zero for these
    return ([0] * get('retries_with_no_delay') +
            [low] * get('minimum_delay_retries') + backed_off +
            [high] * get('maximum_delay_retries'))


def verdict(status):
    """DONE for a 2xx answer; RETRY for none (``None``: no connection, a
    timeout), 408, 425, 429 or a 5xx; FAILED for any other."""
    if status is None or status in RETRIED or status >= 500:
        return RETRY
    if 200 <= status < 300:
        return DONE
    return FAILED
