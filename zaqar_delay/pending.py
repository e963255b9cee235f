"""Pending pushes: the rule both the stores and the dispatcher follow.

A delay driver keeps a pending push beside each message posted while
zaqar-delay's notifier stage is in the message pipeline; a dispatcher
(``zaqar_delay.push``) takes it when due. This module is what both
sides need and nothing else: the stage's name, whether it is on, and
the one-string name of a pending push. No I/O.
"""

import collections

# The name of the notifier stage in ``[storage] message_pipeline``.
STAGE = 'zaqar_delay.notification.notifier'

# A pending push taken by a dispatcher: the message to push, the
# backend's own handle on the entry (to remove it once pushed), the
# subscribers recorded as having answered 2xx for it already (by a
# dispatcher whose lease ended before the push was done), and ``due``:
# the time (unix s) the entry was due at when taken -- the message's
# due time, or, for a push taken again, the end of the lapsed lease
# (None: the store did not say).
Push = collections.namedtuple(
    'Push', 'project queue message_id handle delivered due',
    defaults=(frozenset(), None))

# One attempt of a push to one subscriber: when it started (unix
# seconds, the dispatcher's clock), the subscriber, and its answer (an
# HTTP status; None for no answer, or a scheme without one). A store
# records each as a ``pushed`` history event of a message that keeps
# history (``zaqar_delay.history.events``).
Attempt = collections.namedtuple('Attempt', 'at subscriber status')

# The subscribers of a delivered record, as stores keep them: one
# string, ``SUBSCRIBERS_SEP`` between (a URL has no line feed).
SUBSCRIBERS_SEP = '\n'

# A push a subscriber never took (its retries spent, or refused, or out
# of the lease), kept ``[delay_push] failed_retention`` seconds: ``key``
# names the record; ``at`` is when it failed (unix seconds); ``status``
# the last answer (None: no answer).
FAILED_FIELDS = ('key', 'message_id', 'queue', 'project', 'subscriber',
                 'status', 'attempts', 'reason', 'at')

# A pending push as ``zaqar-delay-manage pushes pending`` lists it:
# ``at`` is when it is due, or when the lease of the dispatcher that
# took it ends; ``delivered`` the subscribers recorded as having it.
PENDING_FIELDS = ('message_id', 'queue', 'project', 'at', 'delivered')

SEP = '/'   # in no message id and no queue name; project ids may have it


def name(message_id, queue, project):
    """A pending push as one string, ``<message id>/<queue>/<project>``.

    Message ids and queue names (``[a-zA-Z0-9_.-]``) have no ``/``; the
    project is last and may have any character, so ``parse`` splits at
    the first two ``/`` only.
    """
    return SEP.join((message_id, queue, project or ''))


def suffix(queue, project):
    """``name`` without its message id (a store appends it to the id)."""
    return name('', queue, project)


def parse(pending):
    """(message id, queue, project) of a pending push's ``name``.

    A name written before names had ``/`` (``<id>.<queue>.<project>``)
    is read as then: right when the queue name has no dot.
    """
    if SEP in pending:
        message_id, queue, project = pending.split(SEP, 2)
    else:
        message_id, queue, project = pending.split('.', 2)
    return message_id, queue, project or None


def join_subscribers(subscribers):
    """One string of a set of subscriber URLs (``split_subscribers``)."""
    return SUBSCRIBERS_SEP.join(sorted(subscribers))


def split_subscribers(joined):
    """The set of subscriber URLs ``join_subscribers`` gave (None or
    empty: none)."""
    if isinstance(joined, bytes):
        joined = joined.decode()
    return frozenset(joined.split(SUBSCRIBERS_SEP)) if joined else frozenset()


def earlier(due, before=None):
    """``due``, or None when it is None or not earlier than ``before``
    (``base.PushStore.next_due``)."""
    if due is None or (before is not None and due >= before):
        return None
    return due


def listed(push, at):
    """The ``PENDING_FIELDS`` record of a pending push due at ``at``."""
    return dict(zip(PENDING_FIELDS, (
        push.message_id, push.queue, push.project, at,
        sorted(push.delivered))))


def enabled(conf):
    """Whether ``conf`` puts zaqar-delay's notifier stage in the message
    pipeline, so that delay drivers keep pending pushes."""
    from zaqar.conf import storage
    conf.register_opts(storage.ALL_OPTS, group=storage.GROUP_NAME)
    return STAGE in conf[storage.GROUP_NAME].message_pipeline
