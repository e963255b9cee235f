"""Pushes to subscribers at the due time: the notifier stage, the pending
pushes a delay driver keeps, and the dispatcher that makes them."""

import collections

# The name of the notifier stage in ``[storage] message_pipeline``.
STAGE = 'zaqar_delay.notification.notifier'

# A pending push taken by a dispatcher: the message to push, and the
# backend's own handle on the entry (to remove it once pushed).
Push = collections.namedtuple('Push', 'project queue message_id handle')


def name(message_id, queue, project):
    """A pending push as one string, ``<message id>.<queue>.<project>``
    (ids and queue names have no dot; the project is last and may have
    any), which the stores keep."""
    return '%s.%s.%s' % (message_id, queue, project or '')


def parse(pending):
    """(message id, queue, project) of a pending push's ``name``."""
    message_id, queue, project = pending.split('.', 2)
    return message_id, queue, project or None


def enabled(conf):
    """Whether ``conf`` puts zaqar-delay's notifier stage in the message
    pipeline, so that delay drivers keep pending pushes."""
    from zaqar.conf import storage
    conf.register_opts(storage.ALL_OPTS, group=storage.GROUP_NAME)
    return STAGE in conf[storage.GROUP_NAME].message_pipeline
